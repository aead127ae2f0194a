package dev.gram.index;

import static dev.gram.index.Fixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.GramTestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A "when" question is answered by the record that says when: Ana tells of the puppy she adopted,
 * then that she brought the puppy home on Saturday; asked when she adopted it, the second comes first.
 */
class TimeWordsTest {
  @TempDir Path dir;

  @Test
  void aWhenQuestionFindsTheRecordThatSaysWhenFirst() {
    try (GramTestServer s = GramTestServer.start(dir.resolve("vault"), "--semantic")) {
      JsonArray turns = new JsonArray()
          .add(record("event", "D1:1", "Ana: We adopted a puppy…", "d", "We adopted a puppy called Luna, she is adorable.",
              "owner", "Ana", "at", "2023-05-08"))
          .add(record("event", "D1:2", "Ben: Congratulations!", "d", "Congratulations! Dogs are the best.",
              "owner", "Ben", "at", "2023-05-08"))
          .add(record("event", "D1:3", "Ana: We brought the puppy home…", "d", "We brought the puppy home on Saturday, the kids were thrilled.",
              "owner", "Ana", "at", "2023-05-08"));
      Fixtures.create(s, "talks/session-01.gram", "Ana and Ben, session 1", new JsonObject().put("records", turns));
      Fixtures.awaitEmbedded(s);
      // Without the rule the first turn leads both (it holds "adopted" as well): checked. By meaning
      // alone it is nearer by 0.06 of cosine, more than the rule's 0.05, so semantic is not asked.
      for (String mode : List.of("keyword", "hybrid")) {
        JsonObject a = s.call("gram_recall", new JsonObject().put("query", "When did Ana adopt the puppy?").put("mode", mode)).ok();
        assertThat(DocumentHitsTest.ids(a)).as(mode + ": " + a.encode()).startsWith("talks/session-01.gram#D1:3");
      }
    }
  }
}
