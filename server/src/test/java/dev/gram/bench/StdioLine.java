package dev.gram.bench;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A sequential JSON-RPC client on a server's stdin and stdout that writes a request and reads its
 * answer on the calling thread: no reader thread, no hand-off, so the time it measures is the
 * pipe and the server, as a sidecar's runtime sees them. Notifications and other lines met before
 * the answer are skipped. Not thread-safe.
 */
final class StdioLine {
  private final OutputStream in;
  private final BufferedReader out;
  private long ids;
  /** Nanoseconds from writing the last request to reading its answer's line. */
  private long lastNanos;

  StdioLine(OutputStream serverStdin, InputStream serverStdout) {
    this.in = serverStdin;
    this.out = new BufferedReader(new InputStreamReader(serverStdout, StandardCharsets.UTF_8), 1 << 16);
  }

  /** Sends {@code initialize} (2025-11-25) and {@code notifications/initialized}. */
  JsonObject initialize(String client) throws IOException {
    JsonObject r = request("initialize", new JsonObject().put("protocolVersion", "2025-11-25")
        .put("capabilities", new JsonObject()).put("clientInfo", new JsonObject().put("name", client).put("version", "1")));
    notify("notifications/initialized");
    return r;
  }

  void notify(String method) throws IOException {
    in.write(("{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\"}\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** The answer's {@code result}; fails on a JSON-RPC error. */
  JsonObject request(String method, JsonObject params) throws IOException {
    long id = ++ids;
    byte[] line = (new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method).put("params", params)
        .encode() + "\n").getBytes(StandardCharsets.UTF_8);
    String prefix = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",";
    long t0 = System.nanoTime();
    in.write(line);
    in.flush();
    String answer;
    while (true) {
      answer = out.readLine();
      if (answer == null) {
        throw new IOException("the server closed its stdout");
      }
      if (answer.startsWith(prefix) || answer.contains("\"id\":" + id + ",") || answer.endsWith("\"id\":" + id + "}")) {
        break;
      }
    }
    lastNanos = System.nanoTime() - t0;
    JsonObject msg = new JsonObject(answer);
    JsonObject result = msg.getJsonObject("result");
    if (result == null) {
      throw new IOException(method + " answered " + msg.getValue("error"));
    }
    return result;
  }

  /** A tool's structured content; fails on a tool error. */
  JsonObject tool(String name, JsonObject arguments) throws IOException {
    JsonObject r = request("tools/call", new JsonObject().put("name", name).put("arguments", arguments));
    if (Boolean.TRUE.equals(r.getBoolean("isError"))) {
      throw new IOException(name + " failed: " + r.getValue("structuredContent"));
    }
    return r.getJsonObject("structuredContent");
  }

  /** How long the last request took, from writing it to reading its answer. */
  long lastNanos() {
    return lastNanos;
  }
}
