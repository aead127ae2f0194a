package dev.gram.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Newline-delimited JSON-RPC with a server the runner starts as a child process. The child's
 * stderr goes where the caller says (the runner's stderr by default); closing the wire closes the
 * child's stdin, which ends an MCP stdio server, and stops it if it does not end on its own.
 */
final class StdioWire implements Wire {
  private static final Logger LOG = LoggerFactory.getLogger(StdioWire.class);

  private final List<String> command;
  private final Process process;
  private final OutputStream stdin;
  private final PendingAnswers pending;

  StdioWire(List<String> command, ProcessBuilder.Redirect stderr, Duration timeout) throws IOException {
    this.command = List.copyOf(command);
    this.pending = new PendingAnswers(timeout, "");
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.redirectError(stderr);
    this.process = pb.start();
    this.stdin = process.getOutputStream();
    Thread reader = new Thread(this::read, "conformance-stdio-reader");
    reader.setDaemon(true);
    reader.start();
  }

  private void read() {
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode msg;
        try {
          msg = Json.parse(line);
        } catch (IOException e) {
          LOG.warn("the server wrote a line that is not JSON on stdout: {}", line);
          continue;
        }
        deliver(msg);
      }
    } catch (IOException e) {
      LOG.debug("reading the server's stdout: {}", e.getMessage());
    }
    pending.end("the server closed its stdout" + exitStatus());
  }

  private String exitStatus() {
    try {
      if (process.waitFor(2, TimeUnit.SECONDS)) {
        return " (it exited with status " + process.exitValue() + ")";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "";
  }

  private void deliver(JsonNode msg) {
    if (msg.has("method")) {
      if (msg.has("id")) {
        answerServerRequest(msg);
      }
      return; // notifications (progress, logging) say nothing a case checks
    }
    if (!pending.deliver(msg)) {
      LOG.warn("an answer to no request of ours: {}", Json.brief(msg, 300));
    }
  }

  /** A server may ping us; we offer no other client feature. */
  private void answerServerRequest(JsonNode msg) {
    ObjectNode answer = Json.object().put("jsonrpc", "2.0");
    answer.set("id", msg.get("id"));
    if ("ping".equals(msg.path("method").asText())) {
      answer.set("result", Json.object());
    } else {
      answer.set("error", Json.object().put("code", -32601).put("message", "Method not found"));
    }
    try {
      write(answer);
    } catch (IOException e) {
      LOG.debug("answering the server's request: {}", e.getMessage());
    }
  }

  private synchronized void write(JsonNode msg) throws IOException {
    stdin.write((Json.compact(msg) + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  @Override
  public JsonNode request(ObjectNode message) throws IOException {
    return pending.request(message, () -> write(message));
  }

  @Override
  public void notify(ObjectNode message) throws IOException {
    write(message);
  }

  @Override
  public String describe() {
    return "stdio " + String.join(" ", command);
  }

  @Override
  public void close() {
    try {
      stdin.close();
    } catch (IOException e) {
      // already closed by the server's exit
    }
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        LOG.warn("the server did not exit within 15 s of the end of its stdin; stopping it");
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
