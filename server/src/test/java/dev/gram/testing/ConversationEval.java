package dev.gram.testing;

import dev.gram.testing.ConversationCorpus.Conversation;
import dev.gram.testing.ConversationCorpus.Corpus;
import dev.gram.testing.ConversationCorpus.Question;
import dev.gram.testing.ConversationCorpus.Session;
import dev.gram.testing.ConversationCorpus.Turn;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Asks every question of a {@link ConversationCorpus} the way the evaluation says (the question
 * unchanged, {@code folder} its conversation, top 10) and scores the answers, overall and per kind
 * of question; and scores the plain BM25 baseline over the same turns.
 */
public final class ConversationEval {
  private ConversationEval() {}

  /** One recall: the hits' keys ({@code path#id}), best first. */
  public interface Ask {
    List<String> hits(String query, String folder, String mode);
  }

  /** Scores per kind of question, and {@code all}. */
  public record Result(Map<String, RecallScores> byKind) {
    public RecallScores all() {
      return byKind.get("all");
    }

    public String kinds() {
      StringBuilder sb = new StringBuilder();
      byKind.forEach((k, v) -> {
        if (!k.equals("all")) {
          sb.append(String.format(Locale.ROOT, " %s %.2f/%.2f", k, v.recall5(), v.recall10()));
        }
      });
      return sb.toString().strip();
    }
  }

  /** The evidence of a question as hit keys. */
  public static List<String> evidence(Corpus corpus, Question q) {
    Conversation c = corpus.conversations().stream().filter(x -> x.id().equals(q.conversation())).findFirst().orElseThrow();
    List<String> out = new ArrayList<>();
    for (String e : q.evidence()) {
      int session = Integer.parseInt(e.substring(1, e.indexOf(':')));
      out.add(ConversationCorpus.path(c, c.sessions().get(session - 1)) + "#" + e);
    }
    return out;
  }

  public static Result run(Corpus corpus, Ask ask, String mode, StringBuilder misses) {
    Map<String, RecallScores> by = new LinkedHashMap<>();
    by.put("all", new RecallScores());
    for (Question q : corpus.questions()) {
      List<String> hits = ask.hits(q.text(), q.conversation(), mode);
      List<String> ev = evidence(corpus, q);
      by.get("all").add(hits, ev);
      by.computeIfAbsent(q.kind(), k -> new RecallScores()).add(hits, ev);
      if (misses != null && RecallScores.share(hits, ev, 10) == 0) {
        misses.append(String.format(Locale.ROOT, "  %-8s %-9s %s %s -> %s%n", mode, q.kind(), q.text(), ev,
            hits.subList(0, Math.min(3, hits.size()))));
      }
    }
    return new Result(by);
  }

  /** The plain BM25 over each conversation's turns (speaker and text), asked the same questions. */
  public static Result bm25(Corpus corpus) {
    Map<String, RecallScores.Bm25> index = new LinkedHashMap<>();
    for (Conversation c : corpus.conversations()) {
      RecallScores.Bm25 b = new RecallScores.Bm25();
      for (Session s : c.sessions()) {
        for (Turn t : s.turns()) {
          b.add(ConversationCorpus.path(c, s) + "#" + t.id(), t.speaker() + " " + t.text());
        }
      }
      index.put(c.id(), b);
    }
    return run(corpus, (q, folder, mode) -> index.get(folder).top(q, 10), "bm25", null);
  }
}
