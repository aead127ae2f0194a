package dev.gram.index;

import dev.gram.async.Async;
import dev.gram.store.DocSnapshot;
import dev.gram.store.Vault;
import io.vertx.core.Future;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;

/**
 * Runs recalls: waits until the writes a recall must see are searchable, resolves the mode, ranks
 * the candidates (one per entity, filters inside the ranking so they never shorten a page) and
 * turns one page of the ranking into hits. The searches run on the pool it is given.
 *
 * <p>Why about 450 lines: it is one recall read in order, from waiting for the writes it must see
 * to the page it answers, with each mode's ranking beside the others (keyword, vectors with their
 * date rule, the fusion's inputs) so that what they share (collapsing to entities, fetching deeper
 * for a short page, stopping when the caller has gone) is written once; the parts with a job of
 * their own already live apart ({@link Queries}, {@link HybridFusion}, {@link BareTitles}, {@link
 * HitFields}, {@link RecentRankings}, {@link WordClauses}).
 */
final class RecallSearcher implements Recall {
  /** Depth of each ranking fused by a hybrid search (at least). */
  static final int FUSE_DEPTH = 50;

  /** Most candidates one search looks at while refilling a filtered or collapsed page. */
  static final int MAX_FETCH = 20_000;

  /** The longest a recall waits for a write to become searchable; past it, it answers with what is. */
  static final int VISIBLE_WAIT_MS = 10_000;

  private final Vault vault;
  private final LiveIndex index;
  private final IndexLedger ledger;
  private final SemanticState semantic;
  private final CommitQueue commits;
  private final ExecutorService pool;
  private final SearchActivity searches;
  private final AutoMode auto;
  private final HybridFusion fusion;
  private final RecentRankings recent = new RecentRankings();
  private final WordClauses words = new WordClauses();

  RecallSearcher(
      Vault vault,
      LiveIndex index,
      IndexLedger ledger,
      SemanticState semantic,
      CommitQueue commits,
      ExecutorService pool,
      SearchActivity searches,
      AutoMode auto,
      HybridFusion fusion) {
    this.vault = vault;
    this.index = index;
    this.ledger = ledger;
    this.semantic = semantic;
    this.commits = commits;
    this.pool = pool;
    this.searches = searches;
    this.auto = auto;
    this.fusion = fusion;
  }

  /**
   * The ticket is taken now, on the caller's thread, so every write whose receipt was returned
   * before this call is found; the waiting and searching happen on the pool.
   */
  @Override
  public Future<RecallResult> recall(RecallRequest req) {
    long ticket = commits.ticket();
    boolean agent = !req.stop().background();
    return Async.run(pool, () -> {
      if (agent) {
        searches.started();
      }
      try {
        req.stop().check();
        commits.awaitApplied(ticket, waitMs(req));
        awaitSmallRebuild(req);
        long gen = index.liveGeneration();
        if (ledger.pendingFiles() == 0) {
          // The rebuild is done: its last documents are one refresh away, which this recall
          // shares, instead of answering partial until the next periodic one.
          gen = Math.max(gen, index.backgroundGeneration());
        }
        return search(req, gen);
      } finally {
        if (agent) {
          searches.ended();
        }
      }
    });
  }

  /**
   * A rebuild of at most this many documents is waited for: the first recall of a session often
   * opens the index, and its rebuild of the few documents loaded meanwhile takes milliseconds;
   * answering partial then would tell an agent to distrust an index that is a moment from whole.
   * A larger rebuild is not waited for (the answer says it is partial).
   */
  static final int WAIT_FOR_REBUILD_UP_TO = 64;

  private static final long REBUILD_WAIT_MAX_MS = 2_000;

  /**
   * Waits, at most {@link #REBUILD_WAIT_MAX_MS} and the caller's deadline, while a rebuild of at
   * most {@link #WAIT_FOR_REBUILD_UP_TO} documents is pending. Polls: the rebuild thread signals
   * nothing, and a millisecond's granularity is far below what the wait is for.
   */
  private void awaitSmallRebuild(RecallRequest req) throws InterruptedException {
    int pending = ledger.pendingFiles();
    if (pending == 0 || pending > WAIT_FOR_REBUILD_UP_TO) {
      return;
    }
    long end = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(
        Math.min(REBUILD_WAIT_MAX_MS, waitMs(req)));
    while (ledger.pendingFiles() > 0 && System.nanoTime() < end) {
      req.stop().check();
      Thread.sleep(1);
    }
  }

  /** How long a recall waits for writes to become searchable: its caller's deadline, at most. */
  private static int waitMs(RecallRequest req) {
    return (int) Math.max(0, Math.min(VISIBLE_WAIT_MS, req.stop().leftMillis()));
  }

  /** Searches once generation {@code gen} is visible (or {@link #VISIBLE_WAIT_MS} passed). */
  RecallResult search(RecallRequest req, long gen) throws IOException, InterruptedException {
    req.stop().check();
    index.awaitVisible(gen, waitMs(req));
    req.stop().check();
    long visible = index.searchingGeneration();
    IndexSearcher s = index.acquire();
    try {
      // Parsed only when needed: to choose a mode for auto, or to rank. A ranking kept from a
      // moment ago needs neither, and parsing was a third of such a recall's search thread.
      RecallRequest.Mode asked = req.mode();
      Queries.Parsed parsed = asked == RecallRequest.Mode.AUTO ? Queries.Parsed.of(req.query()) : null;
      RecallRequest.Mode used = asked == RecallRequest.Mode.AUTO ? auto.choose(parsed, semantic) : asked;
      String fallback = null;
      EmbeddingModel.Encoder enc = semantic.encoder();
      boolean wantsVectors = used == RecallRequest.Mode.SEMANTIC || used == RecallRequest.Mode.HYBRID;
      if (wantsVectors && (!semantic.ready() || enc == null)) {
        fallback = semantic.status().reason() + "; answered in keyword mode";
        used = RecallRequest.Mode.KEYWORD;
        wantsVectors = false;
      }
      int need = req.offset() + req.topK() + 1;
      float[] qv = wantsVectors ? enc.embedQuery(req.query()) : null;
      req.stop().check();
      if (used != RecallRequest.Mode.EXACT && used != RecallRequest.Mode.SEMANTIC && used != RecallRequest.Mode.HYBRID) {
        used = RecallRequest.Mode.KEYWORD;
      }
      IndexReader.CacheHelper cache = s.getIndexReader().getReaderCacheHelper();
      Object reader = cache == null ? null : cache.getKey();
      RecentRankings.Key key = new RecentRankings.Key(req.query(), used, req.filters(), need);
      List<Candidate> ranked = recent.get(reader, key);
      if (ranked == null) {
        IndexSearcher scoring = stoppable(s, req.stop());
        if (parsed == null) {
          parsed = Queries.Parsed.of(req.query());
        }
        ranked = rank(scoring, used, parsed, req, Queries.filter(req.filters()), need, qv);
        // Stopped while Lucene scored or walked the vector graph (the graph's walk ends early
        // without saying so): the caller's error, and no ranking cut short is kept. A stop never
        // comes undone, so a ranking found with the caller still waiting is whole.
        req.stop().check();
        if (scoring.timedOut()) {
          throw new IllegalStateException("a search stopped while its caller still waits");
        }
        recent.put(reader, key, ranked);
      }
      req.stop().check();
      int from = Math.min(req.offset(), ranked.size());
      int to = Math.min(req.offset() + req.topK(), ranked.size());
      List<Candidate> page = ranked.subList(from, to);
      HitFields[] shown = recent.shown(s, reader, page.stream().mapToInt(Candidate::doc).toArray());
      List<RecallResult.Hit> hits = new ArrayList<>(page.size());
      for (int i = 0; i < shown.length; i++) {
        hits.add(hit(s, page.get(i), shown[i], qv));
      }
      int pending = ledger.pendingFiles();
      boolean partial = pending > 0 || !vault.scanComplete() || visible < index.backgroundGeneration();
      return new RecallResult(
          hits,
          ranked.size() > to,
          used,
          qv != null,
          fallback,
          pending,
          partial,
          qv != null ? ledger.unembedded() : 0);
    } finally {
      index.release(s);
    }
  }

  /**
   * {@code s} for one recall, asking {@code stop} while Lucene scores and walks the vector graph
   * (its searchers check at intervals of a few hundred documents): a search that would score a
   * large index for seconds ends soon after its caller got {@code E_TIMEOUT} or cancelled. The
   * shared searcher is left as it is; this one has its reader, similarity and query cache.
   */
  static IndexSearcher stoppable(IndexSearcher s, RecallRequest.Stop stop) {
    if (stop == RecallRequest.Stop.NEVER) {
      return s;
    }
    IndexSearcher view = new IndexSearcher(s.getIndexReader());
    view.setSimilarity(s.getSimilarity());
    view.setQueryCache(s.getQueryCache());
    view.setQueryCachingPolicy(s.getQueryCachingPolicy());
    view.setTimeout(stop::stopped);
    return view;
  }

  /** The candidates of one recall, best first, at least {@code need} when there are as many. */
  private List<Candidate> rank(IndexSearcher s, RecallRequest.Mode used, Queries.Parsed parsed, RecallRequest req,
      Query filter, int need, float[] qv) throws IOException {
    switch (used) {
      case EXACT:
        return lexical(s, Queries.exact(req.query()), filter, need);
      case SEMANTIC:
        {
          // As deep as hybrid looks, so that the hits moved last do not change the first pages as
          // a cursor asks for more.
          int depth = Math.max(need, FUSE_DEPTH);
          return BareTitles.last(s, nearest(s, qv, parsed, filter, depth, true));
        }
      case HYBRID:
        {
          int depth = Math.max(need, FUSE_DEPTH);
          List<Candidate> lexical = keywordHits(s, parsed, filter, depth);
          req.stop().check();
          List<Candidate> near = nearest(s, qv, parsed, filter, depth, false);
          List<Candidate> fused = fusion.fuse(lexical, near, !parsed.dates().spans().isEmpty());
          fused = UnitMatches.raise(s, NamedOwners.of(s, parsed), fused, NamedOwners.FUSED);
          fused = DocumentSupport.raise(fused);
          return BareTitles.last(s, fused);
        }
      default:
        return keywordHits(s, parsed, filter, need);
    }
  }

  /**
   * Keyword hits. A short query first asks for the units that match every word, and only when
   * none does for those that match some: a search for "lunar migration evidence" should not answer
   * with the migration decision that never mentions evidence. A sentence is ranked by BM25 over
   * its words from the start ({@link Queries#keyword}).
   */
  private List<Candidate> keywordHits(IndexSearcher s, Queries.Parsed query, Query filter, int need) throws IOException {
    IndexReader.CacheHelper cache = s.getIndexReader().getReaderCacheHelper();
    Queries.Keyword q = Queries.keyword(query, s, words, cache == null ? null : cache.getKey());
    if (q.allWords() != null) {
      List<Candidate> all = lexical(s, q.allWords(), filter, need);
      if (!all.isEmpty()) {
        return all;
      }
    }
    return lexical(s, q.anyWord(), filter, need);
  }

  /** Ranked, collapsed lexical candidates, fetching deeper while collapsing leaves the page short. */
  private List<Candidate> lexical(IndexSearcher s, Query q, Query filter, int need) throws IOException {
    Query fq = Queries.filtered(q, filter);
    int n = Math.max(need * 2, 20);
    while (true) {
      // Counting hits stops at n: past it, Lucene may skip blocks that cannot reach the top n
      // (the default counts the first 1,000 exactly, scoring every match of a common word).
      TopDocs td = s.search(fq, new TopScoreDocCollectorManager(n, n));
      List<Candidate> c = collapse(s, td.scoreDocs, need, false);
      if (c.size() >= need || td.scoreDocs.length < n || n >= MAX_FETCH) {
        return c;
      }
      n = Math.min(MAX_FETCH, n * 4);
    }
  }

  /**
   * The nearest-neighbour search's beam: the graph is searched for at least this many units, of
   * which the best are kept. The graph search is approximate, and with a beam as small as a page
   * it missed near units whose graph path it did not take, differently from one build of the
   * graph to the next (semantic recall@5 on the conversation corpus moved from 0.58 to 0.63
   * between two runs of the same jar).
   */
  static final int KNN_BEAM = 100;

  /**
   * What a date written in a semantic query adds to the cosine of a unit whose dates meet it. A
   * date has no meaning a model can embed ("2026-04-10" is about as near to every other string of
   * digits), so a query that is mostly a date ranks the units of that day first; a query that only
   * mentions a year among its words ("draft the 2027 forecast") still ranks by what it says.
   * Keyword mode boosts the same units ({@link Queries#DATE_BOOST}). On the labelled corpus's
   * semantic mode, date queries went from recall@5 0.38 / MRR 0.22 to 0.97 / 0.88 (0.1 gave
   * 0.88 / 0.54: bge-small finds a date near other strings of digits by more than that).
   */
  static final float DATE_COSINE = 0.2f;

  /**
   * Semantic candidates: by cosine, plus {@link #DATE_COSINE} for a unit meeting a date of the
   * query, {@link TimeWords#COSINE} for a unit saying when to a "when" question and, when {@code
   * byOwner}, {@link NamedOwners#COSINE} for a record owned by a person it names. The dated units
   * are also searched on their own (an exact search when they are few), so the best of them are
   * found even when undated units are nearer; the others are not (their bonus is a quarter of a
   * date's; searching the owned ones apart moved recall by 0.001 at most, docs/recall.md).
   */
  private List<Candidate> nearest(IndexSearcher s, float[] qv, Queries.Parsed parsed, Query filter, int need,
      boolean byOwner) throws IOException {
    Query dated = Queries.anyDate(parsed.dates());
    Query owned = byOwner ? NamedOwners.of(s, parsed) : null;
    Query timed = parsed.asksWhen() ? TimeWords.QUERY : null;
    if (dated == null && owned == null && timed == null) {
      return vector(s, qv, filter, need);
    }
    LinkedHashMap<String, Candidate> found = new LinkedHashMap<>();
    if (dated != null) {
      for (Candidate c : vector(s, qv, Queries.filtered(dated, filter), need)) {
        found.put(c.key(), c);
      }
    }
    for (Candidate c : vector(s, qv, filter, need)) {
      found.putIfAbsent(c.key(), c);
    }
    // A Lucene cosine score is (1 + cosine) / 2.
    List<Candidate> ranked = new ArrayList<>(found.values());
    if (dated != null) {
      ranked = UnitMatches.raise(s, dated, ranked, DATE_COSINE / 2);
    }
    ranked = UnitMatches.raise(s, owned, ranked, NamedOwners.COSINE / 2);
    return UnitMatches.raise(s, timed, ranked, TimeWords.COSINE / 2);
  }

  /** Ranked, collapsed nearest units by cosine, within the filter. */
  private List<Candidate> vector(IndexSearcher s, float[] qv, Query filter, int need) throws IOException {
    int n = Math.max(need * 2, 20);
    while (true) {
      TopDocs td = s.search(new KnnFloatVectorQuery(Schema.VECTOR, qv, Math.max(n, KNN_BEAM), filter), n);
      List<Candidate> c = collapse(s, td.scoreDocs, need, true);
      if (c.size() >= need || td.scoreDocs.length < n || n >= MAX_FETCH) {
        return c;
      }
      n = Math.min(MAX_FETCH, n * 4);
    }
  }

  /** Keeps the best unit of each entity (a document's sections collapse into one hit). */
  private static List<Candidate> collapse(IndexSearcher s, ScoreDoc[] docs, int need, boolean cosine)
      throws IOException {
    String[] keys = entityKeys(s, docs);
    LinkedHashMap<String, Candidate> out = new LinkedHashMap<>();
    for (int i = 0; i < docs.length; i++) {
      ScoreDoc sd = docs[i];
      String key = keys[i];
      if (!out.containsKey(key)) {
        // A DOT_PRODUCT score is (1 + cosine) / 2 for unit vectors.
        out.put(key, new Candidate(sd.doc, sd.score, key, cosine ? 2 * sd.score - 1 : null));
        if (out.size() >= need) {
          break;
        }
      }
    }
    return new ArrayList<>(out.values());
  }

  /**
   * The {@link Schema#ENTITY_KEY} of each of {@code docs}, in their order; from stored fields for a
   * unit indexed without it.
   */
  static String[] entityKeys(IndexSearcher s, ScoreDoc[] docs) throws IOException {
    int[] ids = new int[docs.length];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = docs[i].doc;
    }
    String[] keys = new String[docs.length];
    StoredFields[] stored = new StoredFields[1];
    BinaryValues.visit(s, ids, Schema.ENTITY_KEY, (i, doc, value) -> {
      if (value != null) {
        keys[i] = value.utf8ToString();
      } else {
        if (stored[0] == null) {
          stored[0] = s.storedFields();
        }
        Document d = stored[0].document(doc, KEY_FIELDS);
        keys[i] = Schema.entityKey(d.get(Schema.PATH), d.get(Schema.EID));
      }
    });
    return keys;
  }

  private static final Set<String> KEY_FIELDS = Set.of(Schema.PATH, Schema.EID);

  private RecallResult.Hit hit(IndexSearcher s, Candidate c, HitFields d, float[] qv) throws IOException {
    Float cos = c.cosine();
    if (cos == null && qv != null) {
      float[] v = vectorOf(s, c.doc());
      if (v != null) {
        float dot = 0;
        for (int i = 0; i < v.length; i++) {
          dot += v[i] * qv[i];
        }
        cos = dot;
      }
    }
    // Units keep no revision of their own (an unchanged unit is not rewritten by a commit): the
    // document's identity is what the index holds for the whole document.
    String path = d.path();
    IndexLedger.Entry e = ledger.get(path);
    DocSnapshot now = e == null ? vault.peek(path) : null;
    return new RecallResult.Hit(
        path,
        d.entityId(),
        d.type(),
        d.title(),
        d.status(),
        d.context(),
        cos,
        e != null ? e.rev() : now == null ? 0 : now.rev(),
        e != null ? e.hash() : now == null ? null : now.hash());
  }

  private static float[] vectorOf(IndexSearcher s, int doc) throws IOException {
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    FloatVectorValues values = leaf.reader().getFloatVectorValues(Schema.VECTOR);
    if (values == null) {
      return null;
    }
    int local = doc - leaf.docBase;
    return values.advance(local) == local ? values.vectorValue().clone() : null;
  }
}
