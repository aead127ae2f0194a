package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.async.Background;
import dev.gram.async.Foreground;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.StringField;
import org.junit.jupiter.api.Test;

/**
 * What the embedder picks up when the model is ready: the paths with a unit still lacking its
 * vector, read from the index's postings, across segments, leaving out units since replaced.
 */
class PathsMissingVectorsTest {
  private static List<Document> units(String path, int embedded, int not) {
    List<Document> out = new ArrayList<>();
    for (int i = 0; i < embedded + not; i++) {
      Document d = new Document();
      d.add(new StringField(Schema.PATH, path, Store.YES));
      d.add(new StringField(Schema.EMBEDDED, i < embedded ? "1" : "0", Store.NO));
      out.add(d);
    }
    return out;
  }

  @Test
  void thePathsWithAUnitWithoutAVectorAreFoundAndReplacedUnitsAreNot() throws Exception {
    try (LiveIndex index = LiveIndex.open(null, "test-model", new Background(1, new Foreground()))) {
      index.replace("p/a.gram", units("p/a.gram", 3, 0));
      index.replace("p/b.gram", units("p/b.gram", 2, 1));
      index.refresh();
      // A later segment: c lacks every vector; b is replaced whole, now embedded (its old units
      // stay in the first segment, deleted).
      index.replace("p/c.gram", units("p/c.gram", 0, 2));
      index.replace("p/b.gram", units("p/b.gram", 3, 0));
      index.refresh();
      assertThat(index.pathsMissingVectors()).containsExactlyInAnyOrder("p/c.gram");

      index.replace("p/a.gram", units("p/a.gram", 1, 1));
      index.refresh();
      assertThat(index.pathsMissingVectors()).containsExactlyInAnyOrder("p/a.gram", "p/c.gram");
    }
  }
}
