package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.edit.PatchOps;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import dev.gram.testing.ConversationCorpus;
import dev.gram.testing.ConversationCorpus.Conversation;
import dev.gram.testing.ConversationCorpus.Corpus;
import dev.gram.testing.ConversationCorpus.Session;
import dev.gram.testing.ConversationEval;
import dev.gram.testing.GramTestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recall on long conversations ({@link ConversationCorpus}), stored as an agent stores them: one
 * document per session, one event record per turn, questions asked with the conversation's folder.
 *
 * <p>The test guards keyword mode against the plain BM25 of the same run, with a small margin (no
 * score is asserted beyond that: the figures are the runner's, {@code ConversationRecallBench}, and
 * {@link ConversationMeasure} compares the alternatives in process).
 */
class ConversationRecallTest {
  @TempDir Path dir;

  @Test
  void keywordRanksAtLeastAsWellAsPlainBm25() throws Exception {
    Corpus corpus = ConversationCorpus.generate(7, 3, 14, ConversationCorpus.Style.DEFAULT);
    Path vault = dir.resolve("vault");
    Files.createDirectories(vault);
    try (GramTestServer s = GramTestServer.start(vault)) {
      store(s, corpus, ConversationCorpus.Style.DEFAULT);
      Fixtures.awaitIndexed(s);
      ConversationEval.Result keyword = ConversationEval.run(corpus, viaTool(s), "keyword", null);
      ConversationEval.Result bm25 = ConversationEval.bm25(corpus);
      System.err.printf(Locale.ROOT, "conversations: keyword %s, plain BM25 %s (%d questions)%n", keyword.all(),
          bm25.all(), bm25.all().count());
      assertThat(keyword.all().recall10()).isGreaterThanOrEqualTo(bm25.all().recall10() - 0.02);
      assertThat(keyword.all().recall5()).isGreaterThanOrEqualTo(bm25.all().recall5() - 0.02);
    }
  }

  static void store(GramTestServer s, Corpus corpus, ConversationCorpus.Style style) {
    for (Conversation c : corpus.conversations()) {
      for (Session session : c.sessions()) {
        s.call("gram_create", ConversationCorpus.createArguments(c, session, style)).ok();
      }
    }
  }

  static ConversationEval.Ask viaTool(GramTestServer s) {
    return (q, folder, mode) -> {
      JsonObject a = s.call("gram_recall", new JsonObject().put("query", q).put("mode", mode).put("folder", folder)
          .put("top_k", 10)).ok();
      JsonArray hits = a.getJsonArray("hits");
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < hits.size(); i++) {
        ids.add(hits.getJsonArray(i).getString(0));
      }
      return ids;
    };
  }

  static ConversationEval.Ask viaIndex(Recall index) {
    return (q, folder, mode) -> {
      RecallRequest.Filters f = new RecallRequest.Filters(null, folder, null, null, null);
      RecallRequest req = new RecallRequest(q, RecallRequest.Mode.ofWire(mode), f, 10, 0);
      List<String> ids = new ArrayList<>();
      for (RecallResult.Hit h : Fixtures.await(index.recall(req)).hits()) {
        ids.add(h.path() + "#" + h.entityId());
      }
      return ids;
    };
  }

}
