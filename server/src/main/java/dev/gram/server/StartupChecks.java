package dev.gram.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What is checked before the server touches anything: a vault or index path that is a file, a
 * vault that cannot be created or written, an HTTP port that is taken. Each finding is one plain
 * sentence. A fatal one ends the start before the vault is created or the welcome document
 * written; the others are warnings the server starts with.
 */
public final class StartupChecks {
  /** The server cannot usefully start; the message says why in one line. */
  public static final class StartupException extends Exception {
    public StartupException(String message) {
      super(message, null, false, false);
    }
  }

  private StartupChecks() {}

  /** Throws for what would leave a server running but useless; returns warnings otherwise. */
  public static List<String> check(ServerConfig c) throws StartupException {
    List<String> warnings = new ArrayList<>();
    Path vault = c.vault().toAbsolutePath().normalize();
    if (Files.exists(vault) && !Files.isDirectory(vault)) {
      throw new StartupException("the vault " + vault + " is a file, not a folder: give --vault a folder");
    }
    Path index = c.index().toAbsolutePath().normalize();
    if (Files.exists(index) && !Files.isDirectory(index)) {
      throw new StartupException("the search index path " + index + " is a file, not a folder: give --index a"
          + " folder (the index is derived from the vault and rebuilt when missing)");
    }
    if (c.http() && !c.stdio()) {
      checkPort(c.host(), c.port());
    }
    if (c.cluster() != null) {
      try {
        checkPort(c.cluster().host(), c.cluster().port());
      } catch (StartupException e) {
        throw new StartupException(e.getMessage().replace("choose another --port", "choose another --cluster-port"));
      }
    }
    if (Files.isDirectory(vault)) {
      if (!Files.isWritable(vault)) {
        warnings.add("the vault " + vault + " is not writable by this user: reads work, every write will fail"
            + " with E_STORAGE (permission denied)");
      }
    } else {
      Path parent = existingAncestor(vault);
      if (parent != null && !Files.isWritable(parent)) {
        throw new StartupException("cannot create the vault " + vault + ": " + parent + " is not writable");
      }
    }
    return warnings;
  }

  /**
   * Binds the port for a moment: taken, the start would fail after writing into the vault. With
   * a plain socket, never a listening one: a listening probe completes the handshake of clients
   * that connect in that moment (an agent runtime polling a server it just spawned), and closing
   * it drops them with no answer. An unlistened bind only refuses them, and they retry.
   */
  static void checkPort(String host, int port) throws StartupException {
    if (port == 0) {
      return;
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
    } catch (UnknownHostException e) {
      throw new StartupException("cannot listen on " + host + ":" + port + ": unknown host " + host);
    }
    try (java.net.Socket probe = new java.net.Socket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(address, port));
    } catch (IOException e) {
      throw new StartupException("cannot listen on " + host + ":" + port + ": address already in use or not"
          + " available (" + e.getMessage() + "); stop the other server or choose another --port");
    }
  }

  private static Path existingAncestor(Path p) {
    Path a = p.getParent();
    while (a != null && !Files.exists(a)) {
      a = a.getParent();
    }
    return a;
  }
}
