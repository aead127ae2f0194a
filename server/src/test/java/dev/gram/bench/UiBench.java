package dev.gram.bench;

import dev.gram.format.GramDocument;
import dev.gram.testing.Browser;
import dev.gram.testing.GramTestServer;
import dev.gram.tools.support.BodyRefs;
import dev.gram.web.DocumentHtml;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * What the web view costs (docs/performance.md, "Web view"): a document of 1,000 records rendered
 * by the renderer alone and served over HTTP, then loaded in headless Chromium (navigation timing
 * and the moment the page's script has run); and the vault page of a vault of 10,000 documents.
 * The server runs in this JVM; the browser is Debian's Chromium. Prints numbers, asserts nothing.
 *
 * <p>{@code mvn -B -Pbench -DskipTests package exec:exec -Dbench.main=dev.gram.bench.UiBench}
 */
public final class UiBench {
  private UiBench() {}

  public static void main(String[] args) throws Exception {
    int records = Integer.getInteger("bench.uiRecords", 1000);
    int documents = Integer.getInteger("bench.uiDocuments", 10_000);
    int runs = Integer.getInteger("bench.uiRuns", 30);
    Path dir = Files.createTempDirectory("gram-ui-bench");
    Path vault = dir.resolve("vault");
    writeSmallDocuments(vault, documents);
    ChromeDriver driver = Browser.start(dir.resolve("profile"));
    try (GramTestServer server = GramTestServer.start(vault, 600)) {
      String path = "big/records.gram";
      createBigDocument(server, path, records);
      String base = "http://127.0.0.1:" + server.httpPort();

      GramDocument state = server.services().vault().peek(path).state();
      double[] render = new double[runs * 2];
      int size = 0;
      for (int i = 0; i < runs * 3; i++) {
        long t = System.nanoTime();
        String html = new DocumentHtml(new DocumentHtml.Frame(path, "/ui/doc/" + path,
            BodyRefs.in(state, server.services().vault()), server.services().vault()::pathOfDocumentId, true,
            Set.of())).render();
        double ms = (System.nanoTime() - t) / 1e6;
        if (i >= runs) {
          render[i - runs] = ms;
        }
        size = html.length();
      }
      print("renderer, " + records + " records (" + size / 1024 + " KiB of HTML)", render);

      HttpClient http = HttpClient.newHttpClient();
      double[] served = serve(http, base + "/ui/doc/" + path, runs);
      print("GET /ui/doc, " + records + " records, whole page over HTTP", served);

      double[][] browser = browse(driver, base + "/ui/doc/" + path, Math.max(5, runs / 3));
      print("browser: response end (navigation start = 0)", browser[0]);
      print("browser: DOM content loaded", browser[1]);
      print("browser: page script ran (usable)", browser[2]);
      print("browser: load event end", browser[3]);

      double[] vaultPage = serve(http, base + "/ui/", runs);
      print("GET /ui/, vault of " + server.services().vault().documents().size() + " documents", vaultPage);
      double[] vaultSorted = serve(http, base + "/ui/?sort=title&dir=asc&page=100", runs);
      print("GET /ui/?sort=title&page=100, same vault", vaultSorted);
      double[][] vaultBrowser = browse(driver, base + "/ui/", Math.max(5, runs / 3));
      print("browser, vault page: page script ran (usable)", vaultBrowser[2]);
    } finally {
      driver.quit();
    }
  }

  /** Documents written as files before the server starts: read at start like any vault. */
  static void writeSmallDocuments(Path vault, int n) throws Exception {
    for (int i = 0; i < n; i++) {
      Path file = vault.resolve("p" + (i % 20)).resolve("note-" + i + ".gram");
      Files.createDirectories(file.getParent());
      Files.writeString(file, "@gram 2\ndoc d_" + String.format("%032x", i) + "\nt Note number " + i
          + "\n::rich\nA short note, number " + i + ".\n::end\n\nTSK t" + i + "\nt Task " + i + "\nx open\n",
          StandardCharsets.UTF_8);
    }
  }

  /** One document: a body placing a fifth of its records, with collections; every kind of record. */
  static void createBigDocument(GramTestServer server, String path, int n) {
    String[] types = {"task", "decision", "evidence", "metric", "event", "risk", "knowledge", "goal"};
    JsonArray records = new JsonArray();
    StringBuilder body = new StringBuilder("# Big document\n\nA paragraph with **strong** text and a [mention](@r-0).\n\n");
    for (int i = 0; i < n; i++) {
      String type = types[i % types.length];
      JsonObject f = new JsonObject().put("t", new JsonArray().add("Record " + i + " about the migration"))
          .put("x", new JsonArray().add(i % 3 == 0 ? "open" : "completed"))
          .put("d", new JsonArray().add("Description of record " + i + ", long enough to wrap a little on screen."));
      if (type.equals("metric")) {
        f.put("value", new JsonArray().add(String.valueOf(i))).put("unit", new JsonArray().add("ms"));
      }
      records.add(new JsonObject().put("type", type).put("id", "r-" + i).put("fields", f));
      if (i % 5 == 0) {
        body.append(i % 100 == 0 ? "## Section " + i + "\n\n" : "").append("[[r-").append(i).append("]]\n\n");
      }
    }
    body.append("[[*]]{type=task view=list}\n\n[[*]]{type=decision view=table}\n");
    JsonObject r = server.call("gram_create", new JsonObject().put("path", path).putNull("base_revision")
        .put("title", "A thousand records").put("content", new JsonObject().put("text", body.toString())
            .put("records", records))).structured();
    if (!r.containsKey("doc")) {
      throw new IllegalStateException("create failed: " + r.encode());
    }
  }

  static double[] serve(HttpClient http, String url, int runs) throws Exception {
    double[] out = new double[runs];
    for (int i = 0; i < runs * 2; i++) {
      long t = System.nanoTime();
      HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofByteArray());
      if (r.statusCode() != 200) {
        throw new IllegalStateException(url + " answered " + r.statusCode());
      }
      if (i >= runs) {
        out[i - runs] = (System.nanoTime() - t) / 1e6;
      }
    }
    return out;
  }

  /** Navigation timing of each load: response end, DOM content loaded, script ran, load end. */
  @SuppressWarnings("unchecked")
  static double[][] browse(ChromeDriver driver, String url, int runs) {
    double[][] out = new double[4][runs];
    for (int i = 0; i < runs + 2; i++) {
      driver.get(url);
      Map<String, Object> t = (Map<String, Object>) driver.executeAsyncScript(
          "var done = arguments[arguments.length - 1];"
              + "(function wait() { var n = performance.getEntriesByType('navigation')[0];"
              + " if (window.gramReady === undefined || !n || n.loadEventEnd === 0) { setTimeout(wait, 5); return; }"
              + " done({response: n.responseEnd, dcl: n.domContentLoadedEventEnd, ready: window.gramReady, load: n.loadEventEnd}); })();");
      if (i >= 2) {
        out[0][i - 2] = ((Number) t.get("response")).doubleValue();
        out[1][i - 2] = ((Number) t.get("dcl")).doubleValue();
        out[2][i - 2] = ((Number) t.get("ready")).doubleValue();
        out[3][i - 2] = ((Number) t.get("load")).doubleValue();
      }
    }
    return out;
  }

  static void print(String what, double[] ms) {
    double[] s = ms.clone();
    Arrays.sort(s);
    List<String> line = new ArrayList<>();
    line.add(String.format("median %.1f ms", s[s.length / 2]));
    line.add(String.format("p90 %.1f ms", s[(int) Math.min(s.length - 1, Math.round(s.length * 0.9))]));
    line.add(String.format("range %.1f–%.1f ms", s[0], s[s.length - 1]));
    System.out.println(what + ": " + String.join(", ", line) + " (" + s.length + " runs)");
  }
}
