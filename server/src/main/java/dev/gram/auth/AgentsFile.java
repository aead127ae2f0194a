package dev.gram.auth;

import dev.gram.access.Approval;
import dev.gram.access.Approvals;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The agents file ({@code --agents FILE}): the agents of a deployment without an identity
 * provider, each a name, the SHA-256 digest of its token (never the token) and its approvals.
 *
 * <pre>
 * {
 *   "agents": [
 *     {"name": "planner", "token_sha256": "&lt;64 hex&gt;",
 *      "approvals": {"project-a": "write", "shared": "read"}, "added": "2026-07-30T09:00:00Z"}
 *   ]
 * }
 * </pre>
 *
 * <p>Names are 1 to 64 letters, digits, {@code . _ - @}, starting with a letter or digit; folders
 * follow {@link Approval#normalize} ({@code *} is everything). Tokens are {@code gram_} and 43
 * base64url characters (256 random bits), so a plain SHA-256 digest is as strong as the token:
 * no salt or slow hash is needed. Any other key, a duplicate name or digest, or a bad folder or
 * access is refused with one sentence naming the fault: at start that stops the server, on a
 * reload the agents already in force stay.
 *
 * @param agents the agents, in the order the file lists them
 */
public record AgentsFile(List<Agent> agents) {
  /** What every token starts with: recognizable in a leaked log or a secret scanner. */
  public static final String TOKEN_PREFIX = "gram_";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final java.util.regex.Pattern NAME =
      java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");

  /** One agent: its name, its token's digest, its approvals and when it was added (or null). */
  public record Agent(String name, String tokenSha256, Approvals approvals, String added) {}

  /** A file that cannot be used; the message is one sentence naming the fault. */
  public static final class BadFile extends Exception {
    public BadFile(String message) {
      super(message, null, false, false);
    }
  }

  public static AgentsFile empty() {
    return new AgentsFile(List.of());
  }

  /** Reads and checks {@code file}; a missing file is an error (there is nothing to serve). */
  public static AgentsFile read(Path file) throws BadFile {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new BadFile("the agents file " + file + " cannot be read: " + e.getMessage());
    }
    return parse(file, bytes);
  }

  /** Checks the bytes of an agents file ({@code file} only names it in messages). */
  public static AgentsFile parse(Path file, byte[] bytes) throws BadFile {
    String where = "the agents file " + file;
    JsonObject root;
    try {
      root = new JsonObject(new String(bytes, StandardCharsets.UTF_8));
    } catch (DecodeException | ClassCastException e) {
      throw new BadFile(where + " is not a JSON object: " + firstLine(e.getMessage()));
    }
    for (String key : root.fieldNames()) {
      if (!key.equals("agents")) {
        throw new BadFile(where + " has an unknown key \"" + key + "\" (only \"agents\")");
      }
    }
    if (!(root.getValue("agents") instanceof JsonArray list)) {
      throw new BadFile(where + " needs \"agents\": a list of {name, token_sha256, approvals}");
    }
    List<Agent> agents = new ArrayList<>();
    Set<String> names = new java.util.HashSet<>();
    Set<String> digests = new java.util.HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      String at = where + ", agent " + (i + 1);
      if (!(list.getValue(i) instanceof JsonObject o)) {
        throw new BadFile(at + " is not an object");
      }
      for (String key : o.fieldNames()) {
        if (!Set.of("name", "token_sha256", "approvals", "added").contains(key)) {
          throw new BadFile(at + " has an unknown key \"" + key + "\" (name, token_sha256, approvals, added)");
        }
      }
      if (!(o.getValue("name") instanceof String name) || !NAME.matcher(name).matches()) {
        throw new BadFile(at + " needs a name of 1 to 64 letters, digits, '.', '_', '-' or '@'");
      }
      at = where + ", agent " + name;
      if (!names.add(name)) {
        throw new BadFile(at + " is listed twice");
      }
      if (!(o.getValue("token_sha256") instanceof String digest) || !digest.matches("[0-9a-f]{64}")) {
        throw new BadFile(at + " needs token_sha256: the SHA-256 of its token as 64 lowercase hex digits");
      }
      if (!digests.add(digest)) {
        throw new BadFile(at + " has the same token as another agent");
      }
      if (!(o.getValue("approvals") instanceof JsonObject approvals)) {
        throw new BadFile(at + " needs approvals: {\"folder\": \"read\" or \"write\", ...} ({} for none)");
      }
      List<Approval> list2 = new ArrayList<>();
      for (String folder : approvals.fieldNames()) {
        Object access = approvals.getValue(folder);
        try {
          list2.add(Approval.of(folder, access instanceof String s ? s : String.valueOf(access)));
        } catch (IllegalArgumentException e) {
          throw new BadFile(at + ": " + e.getMessage());
        }
      }
      Object added = o.getValue("added");
      if (added != null && !(added instanceof String)) {
        throw new BadFile(at + ": added must be a time as text");
      }
      agents.add(new Agent(name, digest, Approvals.of(list2), (String) added));
    }
    return new AgentsFile(List.copyOf(agents));
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "unreadable";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /** The agent of that name, or null. */
  public Agent agent(String name) {
    for (Agent a : agents) {
      if (a.name().equals(name)) {
        return a;
      }
    }
    return null;
  }

  /** The agents by their tokens' digests. */
  Map<String, Agent> byDigest() {
    Map<String, Agent> m = new LinkedHashMap<>();
    for (Agent a : agents) {
      m.put(a.tokenSha256(), a);
    }
    return m;
  }

  /** This file with {@code agent} added; an agent of the same name is an error. */
  public AgentsFile with(Agent agent) throws BadFile {
    if (agent(agent.name()) != null) {
      throw new BadFile("an agent named " + agent.name() + " exists already: revoke it first to give it a new token");
    }
    List<Agent> list = new ArrayList<>(agents);
    list.add(agent);
    return new AgentsFile(List.copyOf(list));
  }

  /** This file without the agent of that name; an unknown name is an error. */
  public AgentsFile without(String name) throws BadFile {
    if (agent(name) == null) {
      throw new BadFile("no agent is named " + name);
    }
    List<Agent> list = new ArrayList<>(agents);
    list.removeIf(a -> a.name().equals(name));
    return new AgentsFile(List.copyOf(list));
  }

  /** The file's JSON, as {@link #parse} reads it. */
  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    for (Agent a : agents) {
      JsonObject approvals = new JsonObject();
      for (Approval ap : a.approvals().list()) {
        approvals.put(ap.label(), ap.access().word());
      }
      JsonObject o = new JsonObject().put("name", a.name()).put("token_sha256", a.tokenSha256())
          .put("approvals", approvals);
      if (a.added() != null) {
        o.put("added", a.added());
      }
      list.add(o);
    }
    return new JsonObject().put("agents", list);
  }

  /**
   * Writes the file so that a reader (the running server) sees the old one or the new one, never
   * a part: a temporary file beside it, readable by its owner only, then a rename.
   */
  public void write(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    try {
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException e) {
      Files.createFile(tmp);
    }
    Files.writeString(tmp, toJson().encodePrettily() + "\n", StandardOpenOption.TRUNCATE_EXISTING);
    try (var ch = java.nio.channels.FileChannel.open(tmp, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** A new token: {@value #TOKEN_PREFIX} and 256 random bits, base64url. */
  public static String newToken() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return TOKEN_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** The digest the file keeps of a token. */
  public static String digest(String token) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Now, to the second, as {@code added} records it. */
  public static String now() {
    return Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
  }
}
