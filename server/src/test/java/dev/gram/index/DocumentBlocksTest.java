package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.async.Background;
import dev.gram.async.Foreground;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.Field;
import dev.gram.format.GramDocument;
import dev.gram.store.DocSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/**
 * A commit that changes a few records of a large document is indexed by the records it changed
 * and their neighbours only ({@link dev.gram.format.ChangedSpan}): what the index then holds must
 * be what writing the whole document would give. Random edits (records added at the end or in the
 * middle, edited, removed, moved; relations, which are no units, between them; the document's own
 * body edited now and then) are indexed both ways, and every indexed term of every unit is
 * compared after each.
 */
class DocumentBlocksTest {
  private static final String PATH = "p/log.gram";

  @Test
  void aCommitIndexedByItsSpanHoldsWhatTheWholeDocumentWould() throws Exception {
    Random random = new Random(20261205);
    Background background = new Background(1, new Foreground());
    try (LiveIndex byCommit = LiveIndex.open(null, "test-model", background);
        LiveIndex whole = LiveIndex.open(null, "test-model", background)) {
      DocumentBlocks incremental = new DocumentBlocks(byCommit);
      List<Entity> records = new ArrayList<>();
      int next = 0;
      for (; next < 30; next++) {
        records.add(next % 7 == 3 ? relation(next) : event(next));
      }
      Entity owner = owner("A log", "The first words of the log.");
      incremental.replace(PATH, snapshot(owner, records, 0), DocMapper.Vectors.NONE);
      for (int rev = 1; rev <= 300; rev++) {
        int n = records.size();
        int at = n == 0 ? 0 : random.nextInt(n);
        switch (random.nextInt(10)) {
          case 0, 1, 2 -> records.add(event(next++));
          case 3 -> records.add(at, event(next++));
          case 4, 5 -> {
            if (n > 0) {
              records.set(at, records.get(at).type() == EntityType.RELATION ? relation(next++) : edited(records.get(at), rev));
            }
          }
          case 6 -> {
            if (n > 0) {
              records.remove(at);
            }
          }
          case 7 -> records.add(at, relation(next++));
          case 8 -> {
            if (n > 1) {
              records.add(random.nextInt(n - 1), records.remove(at));
            }
          }
          default -> {
            if (random.nextInt(4) == 0) {
              owner = owner("A log", "Words of the log at revision " + rev + ".");
            } else {
              records.add(event(next++));
            }
          }
        }
        DocSnapshot s = snapshot(owner, records, rev);
        assertThat(incremental.replaceChanged(PATH, s, DocMapper.Vectors.NONE)).isNotNull();
        new DocumentBlocks(whole).replace(PATH, s, DocMapper.Vectors.NONE);
        byCommit.refresh();
        whole.refresh();
        assertThat(terms(byCommit)).as("revision %d", rev).isEqualTo(terms(whole));
      }
    }
  }

  /** Every indexed term of every live unit of the document: field=term → the units holding it. */
  private static Map<String, Set<String>> terms(LiveIndex index) throws Exception {
    Map<String, Set<String>> out = new TreeMap<>();
    IndexSearcher s = index.acquire();
    try {
      for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
        LeafReader reader = leaf.reader();
        Bits live = reader.getLiveDocs();
        String[] unit = new String[reader.maxDoc()];
        PostingsEnum postings = null;
        TermsEnum keys = reader.terms(Schema.UKEY).iterator();
        for (BytesRef t = keys.next(); t != null; t = keys.next()) {
          postings = keys.postings(postings);
          for (int d = postings.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = postings.nextDoc()) {
            if (live == null || live.get(d)) {
              unit[d] = t.utf8ToString();
            }
          }
        }
        for (FieldInfo field : reader.getFieldInfos()) {
          Terms terms = field.getIndexOptions() == IndexOptions.NONE ? null : reader.terms(field.name);
          if (terms == null) {
            continue;
          }
          TermsEnum te = terms.iterator();
          for (BytesRef t = te.next(); t != null; t = te.next()) {
            postings = te.postings(postings);
            for (int d = postings.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = postings.nextDoc()) {
              if (unit[d] != null) {
                out.computeIfAbsent(field.name + "=" + t.utf8ToString(), k -> new TreeSet<>()).add(unit[d]);
              }
            }
          }
        }
      }
    } finally {
      index.release(s);
    }
    return out;
  }

  private static DocSnapshot snapshot(Entity owner, List<Entity> records, int rev) {
    String hash = String.format("%064x", rev);
    return new DocSnapshot(PATH, null, new GramDocument(owner, records), null, rev, hash, null, 0, null);
  }

  private static Entity owner(String title, String body) {
    return new Entity(EntityType.DOCUMENT, "log1", List.of(new Field("t", List.of(title)), new Field("d", List.of(body))),
        List.of(), List.of());
  }

  private static Entity event(int n) {
    return new Entity(EntityType.EVENT, "e" + n,
        List.of(new Field("t", List.of("Event " + n)), new Field("d", List.of("word" + n + " happened on day " + n))),
        List.of(), List.of());
  }

  private static Entity edited(Entity e, int rev) {
    List<Field> fields = new ArrayList<>(e.fields());
    fields.add(new Field("status", List.of("seen" + rev)));
    return new Entity(e.type(), e.id(), fields, e.links(), e.blocks());
  }

  private static Entity relation(int n) {
    return new Entity(EntityType.RELATION, "r" + n, List.of(new Field("t", List.of("Relation " + n))), List.of(), List.of());
  }
}
