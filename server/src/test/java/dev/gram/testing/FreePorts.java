package dev.gram.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports a test names before a server binds them: cluster nodes must know each other's ports, and a
 * start-up hammer connects to a port before anything listens on it.
 *
 * <p>Why not {@code new ServerSocket(0)}: that hands out a port from the kernel's ephemeral range
 * and frees it again, and until the server binds it, any outgoing connection may take it as its
 * source port. Cluster members connect to each other again and again while they start, so this
 * happened in CI ("address already in use" for a port the test had just found free), and a client
 * hammering a port that does not listen yet can connect to itself (TCP simultaneous open). Ports
 * below the ephemeral range are never handed to a connection or to a bind of port 0.
 */
public final class FreePorts {
  private static final int LOWEST = 20_000;

  private FreePorts() {
  }

  /** One port, free when checked, not in the ephemeral range. */
  public static int one() {
    return reserve(1)[0];
  }

  /** {@code n} distinct ports, each free when checked, none in the ephemeral range. */
  public static int[] reserve(int n) {
    int below = ephemeralLow();
    Set<Integer> taken = new HashSet<>();
    int[] ports = new int[n];
    for (int i = 0; i < n; i++) {
      ports[i] = onePort(below, taken);
    }
    return ports;
  }

  private static int onePort(int below, Set<Integer> taken) {
    for (int attempt = 0; attempt < 1_000; attempt++) {
      int p = ThreadLocalRandom.current().nextInt(LOWEST, below);
      if (!taken.contains(p) && free(p)) {
        taken.add(p);
        return p;
      }
    }
    throw new IllegalStateException("no free port between " + LOWEST + " and " + below);
  }

  private static boolean free(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The lowest port the kernel hands out on its own; 32768 (Linux's default) when unknown. */
  static int ephemeralLow() {
    Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    try {
      if (Files.isReadable(range)) {
        int low = Integer.parseInt(Files.readString(range).trim().split("\\s+")[0]);
        if (low > LOWEST + 1_000) {
          return low;
        }
      }
    } catch (IOException | NumberFormatException e) {
      // fall through to the default
    }
    return 32_768;
  }
}
