package dev.gram.bench;

import dev.gram.testing.ConversationCorpus;
import dev.gram.testing.ConversationCorpus.Question;
import dev.gram.testing.ServerProcess;
import dev.gram.testing.StdioClient;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Recall latency of two jars side by side, interleaved call by call (A B A B…) so that a busy
 * machine slows both alike: each serves its own copy of a conversation corpus that {@link
 * ConversationRecallBench} stored and settled ({@code <dir>/vault}, {@code <dir>/index}), over
 * stdio, with the same questions. Every question is asked once per mode and jar, so no answer
 * comes from a cache of query vectors.
 *
 * <pre>
 * java -cp … dev.gram.bench.RecallLatencyAB A.jar A-dir B.jar B-dir [seed] [conversations]
 * </pre>
 */
public final class RecallLatencyAB {
  private RecallLatencyAB() {}

  public static void main(String[] args) throws Exception {
    long seed = args.length > 4 ? Long.parseLong(args[4]) : 1;
    int convs = args.length > 5 ? Integer.parseInt(args[5]) : 10;
    List<Question> qs = ConversationCorpus.generate(seed, convs, 24, ConversationCorpus.Style.DEFAULT).questions();
    StdioClient[] rpc = new StdioClient[2];
    ServerProcess[] servers = new ServerProcess[2];
    for (int i = 0; i < 2; i++) {
      System.setProperty("gram.jar", args[2 * i]);
      Path dir = Path.of(args[2 * i + 1]);
      servers[i] = ServerProcess.start(dir, "--no-welcome", "--no-http");
      rpc[i] = new StdioClient(servers[i].stdin(), servers[i].stdout(), false);
      ConversationRecallBench.initialize(rpc[i]);
      ConversationRecallBench.settle(rpc[i], servers[i]);
    }
    // Warm-up: the same first 100 questions, keyword, on both.
    for (Question q : qs.subList(0, 100)) {
      for (int i = 0; i < 2; i++) {
        ConversationRecallBench.recall(rpc[i], q.text(), q.conversation(), "keyword");
      }
    }
    StringBuilder out = new StringBuilder("| mode | A p50 | B p50 | A p90 | B p90 | questions |\n|---|---|---|---|---|---|\n");
    List<String> modes = List.of("keyword", "semantic", "hybrid", "auto");
    int slice = (qs.size() - 100) / modes.size();
    for (int m = 0; m < modes.size(); m++) {
      List<Question> part = qs.subList(100 + m * slice, 100 + (m + 1) * slice);
      long[][] lat = new long[2][part.size()];
      for (int k = 0; k < part.size(); k++) {
        Question q = part.get(k);
        for (int j = 0; j < 2; j++) {
          int i = (k + j) % 2;
          long t0 = System.nanoTime();
          ConversationRecallBench.recall(rpc[i], q.text(), q.conversation(), modes.get(m));
          lat[i][k] = System.nanoTime() - t0;
        }
      }
      out.append(String.format(Locale.ROOT, "| %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %d |%n", modes.get(m),
          pct(lat[0], 0.5), pct(lat[1], 0.5), pct(lat[0], 0.9), pct(lat[1], 0.9), part.size()));
    }
    for (ServerProcess s : servers) {
      s.stop();
    }
    System.out.println("A = " + args[0] + ", B = " + args[2] + "\n" + out);
    System.exit(0);
  }

  private static double pct(long[] nanos, double p) {
    long[] l = nanos.clone();
    Arrays.sort(l);
    return l[(int) Math.max(0, Math.ceil(p * l.length) - 1)] / 1e6;
  }
}
