package dev.gram.auth;

import dev.gram.access.Approvals;
import dev.gram.access.Identity;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agents file as the running server holds it. The file is read again every {@code
 * periodMillis} (one second by default) off the event loop, and when its bytes changed it is
 * checked and, if good, takes effect at once: a new agent's token works, a revoked agent's token
 * is refused at its next request, and changed approvals apply to the next call of every session
 * and the next notification of every subscription, since identities read their approvals here. A
 * file that became bad is logged and ignored: the agents in force stay until it is fixed. Editing
 * the file by hand, {@code gram-mcp agents add} and {@code agents revoke} all reach a running
 * server this way, with no restart and no signal.
 */
public final class AgentDirectory {
  private static final Logger LOG = LoggerFactory.getLogger(AgentDirectory.class);

  private final Path file;
  private volatile AgentsFile current;
  private volatile Map<String, AgentsFile.Agent> byDigest;
  private byte[] lastBytes;

  private AgentDirectory(Path file, AgentsFile agents, byte[] bytes) {
    this.file = file;
    this.current = agents;
    this.byDigest = agents.byDigest();
    this.lastBytes = bytes;
  }

  /** Reads the file at start: a bad one is an error whose message is the one line to print. */
  public static AgentDirectory load(Path file) throws AgentsFile.BadFile {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new AgentsFile.BadFile("the agents file " + file + " cannot be read: " + e);
    }
    return new AgentDirectory(file, AgentsFile.parse(file, bytes), bytes);
  }

  /** Re-reads the file every {@code periodMillis}; the timer ends with Vert.x. */
  public void watch(Vertx vertx, long periodMillis) {
    vertx.setPeriodic(periodMillis, periodMillis, t -> vertx.executeBlocking(() -> {
      reload();
      return null;
    }, false));
  }

  /** Reads the file now; true when it changed and took effect. */
  synchronized boolean reload() {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      if (lastBytes != null) {
        LOG.error("the agents file {} cannot be read ({}); the {} agents read before stay in force", file, e,
            current.agents().size());
        lastBytes = null;
      }
      return false;
    }
    if (Arrays.equals(bytes, lastBytes)) {
      return false;
    }
    lastBytes = bytes;
    try {
      AgentsFile next = AgentsFile.parse(file, bytes);
      current = next;
      byDigest = next.byDigest();
      LOG.info("agents file {} reloaded: {} agents", file, next.agents().size());
      return true;
    } catch (AgentsFile.BadFile e) {
      LOG.error("{}; the {} agents read before stay in force", e.getMessage(), current.agents().size());
      return false;
    }
  }

  /** The identity a token proves, or null when no agent has it. */
  Identity match(String credential) {
    AgentsFile.Agent agent = byDigest.get(AgentsFile.digest(credential));
    if (agent == null) {
      return null;
    }
    String digest = agent.tokenSha256();
    return Identity.named(agent.name(), Identity.Kind.AGENT, () -> approvalsOf(digest), null);
  }

  /**
   * The approvals of the agent holding the token of that digest now: none once it is revoked,
   * even if an agent of the same name was added again with a new token.
   */
  private Approvals approvalsOf(String digest) {
    AgentsFile.Agent agent = byDigest.get(digest);
    return agent == null ? Approvals.NONE : agent.approvals();
  }

  public AgentsFile current() {
    return current;
  }
}
