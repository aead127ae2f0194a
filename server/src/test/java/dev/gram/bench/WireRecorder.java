package dev.gram.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Records what a server jar answers, byte for byte, to one fixed conversation over stdio that
 * touches every tool, its errors, resources and prompts: run it against two builds and diff the
 * files to show that a change kept the wire as it was. Values that differ from run to run by
 * nature (document ids, hashes that cover them, recorded times, durations, a file's size while the
 * checkpointer may or may not have rewritten it) are masked; nothing else.
 *
 * <p>{@code java -cp server/target/test-classes dev.gram.bench.WireRecorder <jar> <out-file>}
 */
public final class WireRecorder {
  private WireRecorder() {}

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args[0]);
    Path out = Path.of(args[1]);
    Path dir = Files.createTempDirectory("wire-");
    Process p = new ProcessBuilder("java", "-jar", jar.toString(), "--vault", dir.resolve("vault").toString(),
        "--index", dir.resolve("index").toString(), "--no-http", "--no-welcome", "--no-semantic")
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    List<String> transcript = new ArrayList<>();
    try (OutputStream in = p.getOutputStream();
        BufferedReader reply = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      int id = 0;
      String hashA = null;
      String previous = null;
      for (String call : conversation()) {
        boolean notification = call.startsWith("!");
        String body = call.equals("=") ? previous : (notification ? call.substring(1) : call).replace("${HASH_A}", String.valueOf(hashA));
        previous = body;
        String msg = notification ? body : body.replaceFirst("^\\{", "{\"jsonrpc\":\"2.0\",\"id\":" + (++id) + ",");
        in.write((msg + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        transcript.add("> " + mask(msg));
        if (notification) {
          continue;
        }
        String want = "\"id\":" + id + ",";
        String line;
        while ((line = reply.readLine()) != null) {
          transcript.add("< " + mask(line));
          java.util.regex.Matcher m = java.util.regex.Pattern
              .compile("\"hash\":\"([0-9a-f]{16})\",\"path\":\"p/a.gram\"").matcher(line);
          if (hashA == null && m.find()) {
            hashA = m.group(1); // the CAS pair of p/a.gram at revision 0, for the patches that follow
          }
          if (line.contains(want) || line.contains("\"id\":" + id + "}")) {
            break;
          }
        }
      }
    } finally {
      p.destroy();
      p.waitFor(20, TimeUnit.SECONDS);
    }
    Files.write(out, transcript);
    System.out.println(transcript.size() + " lines to " + out);
  }

  /** Document ids, hashes and times are new in every run; everything else must be equal. */
  static String mask(String s) {
    return s.replaceAll("d_[0-9a-f]{32}", "d_ID")
        .replaceAll("[0-9a-f]{64}", "HASH64")
        .replaceAll("(?<![0-9a-zA-Z])[0-9a-f]{16}(?![0-9a-zA-Z])", "HASH16")
        .replaceAll("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z", "TIME")
        .replaceAll("\"(elapsed_ms|took_ms|uptime_seconds|ttlMs)\":\\d+(\\.\\d+)?", "\"$1\":N")
        // A resource's size is its file's, which grows when the checkpointer (a second behind) rewrites it.
        .replaceAll("\"size\":\\d+", "\"size\":N");
  }

  private static String tool(String name, String args) {
    return "{\"method\":\"tools/call\",\"params\":{\"name\":\"" + name + "\",\"arguments\":" + args + "}}";
  }

  private static List<String> conversation() {
    List<String> c = new ArrayList<>();
    c.add("{\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
        + "\"clientInfo\":{\"name\":\"wire-recorder\",\"version\":\"1\"}}}");
    c.add("!{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    c.add("{\"method\":\"ping\"}");
    c.add("{\"method\":\"tools/list\"}");
    c.add(tool("gram_profile", "{}"));
    c.add(tool("gram_capabilities", "{}"));
    c.add(tool("gram_create", "{\"path\":\"p/a.gram\",\"base_revision\":null,\"title\":\"Alpha\",\"content\":{\"text\":"
        + "\"# Plan\\n\\nFirst words.\",\"records\":[{\"type\":\"task\",\"id\":\"t1\",\"fields\":{\"t\":[\"Write the plan\"],"
        + "\"x\":[\"open\"],\"due\":[\"2026-02-01\"]}},{\"type\":\"decision\",\"id\":\"d1\",\"fields\":{\"t\":[\"Use grams\"]},"
        + "\"links\":[[\"supports\",\"t1\"]]}]}}"));
    c.add(tool("gram_create", "{\"path\":\"p/b.gram\",\"base_revision\":null,\"title\":\"Beta\",\"content\":\"See [[t9]].\"}"));
    c.add(tool("gram_create", "{\"path\":\"p/a.gram\",\"base_revision\":null,\"title\":\"Again\",\"content\":\"\"}"));
    c.add(tool("gram_create", "{\"path\":\"/abs.gram\",\"base_revision\":null,\"title\":\"X\",\"content\":\"\"}"));
    c.add(tool("gram_create", "{\"path\":\"p/c.gram\",\"title\":\"No base\",\"content\":\"\"}"));
    c.add(tool("gram_get", "{\"path\":\"p/a.gram\",\"entity\":\"doc\"}"));
    c.add(tool("gram_get", "{\"path\":\"p/a.gram\",\"entity\":\"t1\"}"));
    c.add(tool("gram_get", "{\"path\":\"p/a.gram\",\"entity\":\"nope\"}"));
    c.add(tool("gram_read", "{\"path\":\"p/a.gram\"}"));
    c.add(tool("gram_list", "{\"folder\":\"p\"}"));
    c.add(tool("gram_projects", "{}"));
    c.add(tool("gram_brief", "{\"folder\":\"p\"}"));
    c.add(tool("gram_context", "{\"paths\":[\"p/a.gram\",\"p/b.gram\"]}"));
    c.add(tool("gram_relations", "{\"from\":{\"path\":\"p/a.gram\",\"entity\":\"t1\"}}"));
    c.add(tool("gram_range", "{\"path\":\"p/a.gram\"}"));
    c.add(tool("gram_state", "{\"path\":\"p/a.gram\",\"at\":{\"revision\":0}}"));
    c.add(tool("gram_changes", "{\"folder\":\"p\"}"));
    c.add(tool("gram_recall", "{\"query\":\"plan\",\"folder\":\"p\",\"mode\":\"keyword\"}"));
    c.add(tool("gram_recall", "{\"query\":\"\\\"Write the plan\\\"\",\"mode\":\"exact\"}"));
    c.add(tool("gram_recall", "{\"query\":\"x\",\"mode\":\"nonsense\"}"));
    String good = "{\"path\":\"p/a.gram\",\"base_revision\":0,\"expected_hash\":\"${HASH_A}\",\"request_id\":\"good-1\","
        + "\"operations\":[{\"op\":\"set\",\"entity\":\"t1\",\"key\":\"x\",\"value\":\"active\"},"
        + "{\"op\":\"add\",\"record\":{\"type\":\"evidence\",\"id\":\"e1\",\"fields\":{\"t\":[\"Seen\"]},"
        + "\"links\":[[\"supports\",\"nowhere\"]]}}]}";
    c.add(tool("gram_patch", good));
    c.add("="); // the same request again: its original receipt
    c.add(tool("gram_patch", good.replace("\"active\"", "\"other\""))); // the same id, another intent
    c.add(tool("gram_patch", "{\"path\":\"p/a.gram\",\"base_revision\":0,\"expected_hash\":\"0000000000000000\","
        + "\"request_id\":\"stale-1\",\"operations\":[{\"op\":\"set\",\"entity\":\"t1\",\"key\":\"x\",\"value\":\"done\"}]}"));
    c.add(tool("gram_patch", "{\"path\":\"p/a.gram\",\"base_revision\":0,\"request_id\":\"no-hash\","
        + "\"operations\":[{\"op\":\"set\",\"entity\":\"t1\",\"key\":\"x\",\"value\":\"done\"}]}"));
    c.add(tool("gram_patch", "{\"path\":\"p/a.gram\",\"base_revision\":0,\"expected_hash\":\"0000000000000000\","
        + "\"request_id\":\"bad-op\",\"operations\":[{\"op\":\"explode\"}]}"));
    c.add("{\"method\":\"resources/list\"}");
    c.add("{\"method\":\"resources/templates/list\"}");
    c.add("{\"method\":\"resources/read\",\"params\":{\"uri\":\"gram://p/a.gram\"}}");
    c.add("{\"method\":\"resources/read\",\"params\":{\"uri\":\"gram://../x.gram\"}}");
    c.add("{\"method\":\"prompts/list\"}");
    c.add("{\"method\":\"no/such/method\"}");
    c.add("{\"method\":\"tools/call\",\"params\":{\"name\":\"gram_nothing\",\"arguments\":{}}}");
    return c;
  }
}
