package dev.gram.index;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/**
 * Vectors already computed, by chunk key (the hash of the text embedded), so that a block written
 * again keeps the vectors of the text that did not change and nothing is embedded twice: first
 * the ones computed lately, kept in memory, then the ones stored in the index.
 */
final class KnownVectors {
  private static final int RECENT_MAX = 8_192;

  private final LiveIndex index;
  private final SemanticState semantic;
  private final Map<String, float[]> recent =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> e) {
          return size() > RECENT_MAX;
        }
      };

  KnownVectors(LiveIndex index, SemanticState semantic) {
    this.index = index;
    this.semantic = semantic;
  }

  synchronized float[] recent(String chunkKey) {
    return recent.get(chunkKey);
  }

  synchronized void remember(String chunkKey, float[] vector) {
    recent.put(chunkKey, vector);
  }

  /**
   * The recent vectors only. A commit rewrites few units and must not wait for a search of its
   * document's stored vectors; what it misses, the embedder finds in the index afterwards.
   */
  DocMapper.Vectors recentOnly() {
    return this::recent;
  }

  /** For a block written whole: the recent vectors, then those the index holds for {@code path}. */
  DocMapper.Vectors forDocument(String path) {
    if (!semantic.wanted()) {
      return DocMapper.Vectors.NONE;
    }
    return new DocMapper.Vectors() {
      private Map<String, float[]> stored;

      @Override
      public float[] get(String key) {
        float[] v = recent(key);
        if (v != null) {
          return v;
        }
        if (stored == null) {
          try {
            stored = stored(path);
          } catch (IOException e) {
            stored = Map.of();
          }
        }
        return stored.get(key);
      }
    };
  }

  /** Chunk key → vector for the units of {@code path} in the current searcher. */
  Map<String, float[]> stored(String path) throws IOException {
    Map<String, float[]> out = new HashMap<>();
    IndexSearcher s = index.acquire();
    try {
      Query q =
          new BooleanQuery.Builder()
              .add(new TermQuery(new Term(Schema.PATH, path)), Occur.FILTER)
              .add(new TermQuery(new Term(Schema.EMBEDDED, "1")), Occur.FILTER)
              .build();
      TopDocs td = s.search(q, 100_000);
      int[] docs = new int[td.scoreDocs.length];
      for (int i = 0; i < docs.length; i++) {
        docs[i] = td.scoreDocs[i].doc;
      }
      // In doc order, so each leaf's vector values are read forward once.
      Arrays.sort(docs);
      List<LeafReaderContext> leaves = s.getIndexReader().leaves();
      int leafOrd = -1;
      FloatVectorValues values = null;
      StoredFields stored = null;
      for (int doc : docs) {
        int li = ReaderUtil.subIndex(doc, leaves);
        LeafReaderContext leaf = leaves.get(li);
        if (li != leafOrd) {
          leafOrd = li;
          values = leaf.reader().getFloatVectorValues(Schema.VECTOR);
          stored = leaf.reader().storedFields();
        }
        if (values == null) {
          continue;
        }
        int local = doc - leaf.docBase;
        if (values.docID() < local && values.advance(local) != local) {
          continue;
        }
        if (values.docID() == local) {
          String key = stored.document(local, Set.of(Schema.CHUNK)).get(Schema.CHUNK);
          out.put(key, values.vectorValue().clone());
        }
      }
    } finally {
      index.release(s);
    }
    return out;
  }
}
