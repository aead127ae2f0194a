/**
 * The search index behind {@code gram_recall}: Lucene, kept in step with the vault, with keyword,
 * exact, semantic and hybrid retrieval.
 *
 * <p>The package owns the index folder and everything derived into it; the vault owns the
 * documents. Tools see the index through two interfaces only: {@link dev.gram.index.IndexStatus}
 * (counts and whether semantic search works, for {@code gram_capabilities}) and {@link
 * dev.gram.index.Recall} (the search). {@link dev.gram.index.RecallIndex} implements both; the
 * server opens it before the vault starts and closes it after the vault. Opening returns at once:
 * the Lucene index is opened on a thread of its own while the transports answer their first
 * requests, and what the vault says meanwhile is held and handed on in order.
 *
 * <h2>Who does what</h2>
 *
 * <ul>
 *   <li>{@link dev.gram.index.RecallIndex}: stands for the index while it opens (holding the
 *       vault's changes, keeping recalls waiting) and for {@link dev.gram.index.OpenIndex} after.
 *   <li>{@link dev.gram.index.OpenIndex}: wires the parts below, owns every thread they run on
 *       (the live thread, the rebuild thread, the embedder, the search pool) and closes them in
 *       order.
 *   <li>{@link dev.gram.index.IndexKeeper}: keeps the index in step with the vault: the start-up
 *       reconcile, the background rebuild, and commits, through the {@link
 *       dev.gram.index.CommitQueue}.
 *   <li>{@link dev.gram.index.BackgroundEmbedder}: gives indexed units their vectors; {@link
 *       dev.gram.index.QuietQueue} hands it documents once they are quiet, and {@link
 *       dev.gram.index.BackgroundMerges} runs Lucene's merges on the same bounded share.
 *   <li>{@link dev.gram.index.RecallSearcher}: runs a recall's mode and pages; {@link
 *       dev.gram.index.AutoMode} picks the mode of {@code auto} and {@link
 *       dev.gram.index.HybridFusion} merges the two rankings of {@code hybrid}; {@link
 *       dev.gram.index.RecentRankings} keeps the rankings of the last recalls for the reader they
 *       came from, and {@link dev.gram.index.WordClauses} the keyword clauses of the words they
 *       asked about.
 *   <li>{@link dev.gram.index.IndexLedger}: what the index holds of each document (revision,
 *       hash, status), shared by the three above; {@link dev.gram.index.DocumentBlocks} writes a
 *       document's block of Lucene documents for the keeper and the embedder, after a commit only
 *       the units of the records it changed ({@link dev.gram.format.ChangedSpan}).
 *   <li>{@link dev.gram.index.LiveIndex}: the Lucene writer, readers and generations; {@link
 *       dev.gram.index.DocUnits} (a document split into what a hit can be), {@link
 *       dev.gram.index.DocMapper}, {@link dev.gram.index.Queries} and {@link
 *       dev.gram.index.Analyzers}: what is indexed and how it is asked ({@link
 *       dev.gram.index.Typos} expands a word the index lacks, {@link dev.gram.index.PreparedQuery}
 *       spares a built query Lucene's second rewrite).
 *   <li>{@link dev.gram.index.IndexTuning}: the measured choices (fusion, auto's policy, the
 *       embedder's batch and yielding), passed to the parts at open; a test measures an
 *       alternative by opening an index with other values.
 * </ul>
 *
 * <h2>What is indexed</h2>
 *
 * <p>Every document of the vault and its mounts becomes one <em>block</em> of Lucene documents,
 * all carrying the document's path ({@link dev.gram.index.DocMapper}):
 *
 * <ul>
 *   <li>a <b>meta</b> document holding the fingerprint (path, revision, state hash) the index was
 *       built from;
 *   <li>one document per <b>record</b>: id, type, title, status, description and every other
 *       field value, blocks, tags; s-tags (the {@code s} field) for {@code scope}; each date-valued
 *       field as a range (for {@code from}/{@code to}/{@code date}) plus the record's default
 *       date field by type, and all its dates together (for dates written in a query);
 *   <li>one document per <b>section chunk</b> of the body: the heading path ({@code A > B}), the
 *       document's title, and up to 160 words of the section's text. Items placing records are
 *       left out (the records are indexed themselves); a mention keeps its label.
 * </ul>
 *
 * <p>Text is indexed twice: with keyword analysis (Unicode word splitting, lowercase, ASCII
 * folding, the word and its Porter stem at one position) and with exact analysis (words and
 * lowercase only), see {@link dev.gram.index.Analyzers}. Each record and chunk also holds a
 * 384-dimension unit vector in a {@code KnnFloatVectorField} (dot product = cosine) once it has
 * been embedded, and the hash of the text the vector came from.
 *
 * <h2>Derived data, rebuildable</h2>
 *
 * <p>Nothing in the index is only in the index. One that cannot be read, or was written by another
 * version of the mapping ({@link dev.gram.index.Schema#VERSION}) or another embedding model, is
 * emptied and rebuilt from the vault; one whose folder another process holds is replaced by an
 * index in memory. Deleting the folder loses nothing.
 *
 * <p>At open, the fingerprints stored in the index are read. The vault then loads every document
 * in the background and tells the index of each; a document whose fingerprint matches is known
 * to be indexed and costs nothing, any other one is queued for the <em>rebuild</em> thread, and a
 * path the index holds but the vault no longer has is removed once the vault has finished
 * loading. Meanwhile the server answers: recall searches what is indexed so far and says {@code
 * partial} with the number of documents pending. A long rebuild shows its progress on stderr
 * ({@link dev.gram.index.Progress}). A document that cannot be parsed is removed from the index
 * and counted as failed; it never stops the others, and once repaired it is indexed again. Edits
 * by other programs arrive through the vault's file watcher as new states, like commits.
 *
 * <p>Every change to one document's block — commit, rebuild, embedder — holds that path's lock,
 * and the rebuild and the embedder write only what is still the vault's current state, so a slow
 * background write never overwrites a newer commit.
 *
 * <h2>Read-your-writes without a refresh per write</h2>
 *
 * <p>A recall finds every write whose commit receipt was returned before the recall arrived,
 * whichever client wrote it. The vault calls the index ({@link dev.gram.store.CommitListener}) on
 * the document's actor thread for every new state, before the write's receipt is returned. For a
 * commit the index only queues the state (the newest per document) and counts it, so the receipt
 * never waits for Lucene. The live thread takes a document's state at once, unless the document
 * is hot (committed again within 20 ms): then once it pauses, so a stream of commits to one
 * document costs a few indexings a second, not one per commit; and everything at once when a
 * recall waits for it. It plans the document's units and
 * rewrites only those whose content changed (an unchanged record is the same immutable object as
 * before: one identity check), and raises the <em>live generation</em> to the sequence number
 * Lucene returned ({@link dev.gram.index.LiveIndex}).
 *
 * <p>A recall therefore waits twice, and neither wait can go: it takes the queue's count when it
 * arrives and waits until the live thread has handed everything up to it to Lucene (a commit
 * still queued has no Lucene sequence number, so Lucene cannot wait for it); then it waits until
 * the searcher includes the live generation. That second wait is Lucene's {@code
 * ControlledRealTimeReopenThread}: it reopens at once when someone waits and otherwise every half
 * second, and one reopen serves every write committed and every reader waiting meanwhile. So
 * writes never pay for a refresh, a reader pays at most one shared refresh, and only if a write
 * happened since the last one. Small new segments stay in memory ({@code NRTCachingDirectory}),
 * so that refresh writes no files. Changes of the rebuild and the embedder are not waited for.
 *
 * <p>On a cluster every node indexes every revision. Revisions another node committed ({@link
 * dev.gram.store.CommitListener#onFollowed}) wait in the queue up to half a second unless a recall
 * waits for them, while this node's own commits are taken at once (a hot document's once it
 * pauses: 20 ms, at most 200 ms after the oldest) without them, so a follower indexes a busy
 * document once for many of its owner's commits, and the owner a hot one once for many of its
 * own; the recall's ticket covers them like any commit.
 *
 * <h2>Semantic search, and the embedder giving way</h2>
 *
 * <p>The model ({@link dev.gram.index.EmbeddingModel}, bge-small-en-v1.5 quantized, run by ONNX
 * Runtime inside this process, queries with the model's retrieval prefix) is loaded and probed in the background, once per process. Until it
 * answers, or if it cannot load, or if {@code --no-semantic} turned it off, semantic and hybrid
 * requests are answered in keyword mode with the reason ({@link dev.gram.index.SemanticState}),
 * and {@code gram_capabilities} reports the same reason. Vectors are computed as background work
 * ({@link dev.gram.async.Background}): on its share of threads (half the cores by default), at
 * the lowest CPU priority, never on an event loop and never inside a write. A commit indexes its
 * text at once and queues its document for the embedder, which takes it once the document has
 * been quiet for 200 ms (or waited 500 ms: a document written without pause is embedded twice a
 * second, at its latest state), embeds only the units written without a vector ({@link
 * dev.gram.index.DocumentBlocks} remembers which) whose chunk text has no vector yet (in the index
 * or a small cache), 8 at a time, and writes those units alone again. Before each batch it waits
 * while tool calls are in flight or recalls ended moments ago, at most half a second: the agents
 * are not slowed by it, and it is never starved. Lucene's merges, which rebuild vector graphs, are
 * background work as well ({@link dev.gram.index.BackgroundMerges}): a merge starts once no call is
 * in flight, at most a second later than it would have; once the index has been quiet
 * for a commit period, its small segments are merged into one ({@link
 * dev.gram.index.IdleCompaction}), because every search pays per segment. Batching at the ONNX level
 * (one padded tensor per batch) was measured and was not faster for this quantized model on CPU.
 *
 * <h2>Searching</h2>
 *
 * <p>A recall's query is analysed once ({@link dev.gram.index.Queries.Parsed}: its dates, words,
 * exact terms, whether it is a question) and every part reads that. {@link dev.gram.index.Queries}
 * builds the lexical queries and the filters; filters are Lucene filter clauses (and the kNN
 * query's filter), so the ranking is computed among matching units only and a filter never
 * shortens a page. Keyword mode scores a sentence by BM25 over its words, each word in the best
 * field it occurs in, a person's name at less than other words (names recur everywhere in a
 * conversation) but boosting that person's own records; only a short query is first matched
 * whole. Its terms are looked up once per recall ({@link dev.gram.index.TermLookup}), and a term
 * no unit has makes no clause. Hits are collapsed to one per entity (a document's best section);
 * when a page is short after collapsing, the search fetches deeper. A page reads what it shows from
 * doc values ({@link dev.gram.index.HitFields}), never from stored fields. Hybrid fuses the keyword
 * and semantic rankings by their z-scores, each side weighted by how far its own first hit stands
 * out ({@link dev.gram.index.HybridFusion}), and raises a unit by how well the rest of its
 * document matches ({@link dev.gram.index.DocumentSupport}). By meaning too, the records of a
 * person the query names rank higher ({@link dev.gram.index.NamedOwners}; {@link
 * dev.gram.index.UnitMatches} adds such bonuses to a ranking's candidates without searching the
 * index again), and a "when" question favours the units whose words say when ({@link
 * dev.gram.index.TimeWords}). A recall waits for writes and searches only while its caller
 * still wants the answer ({@link dev.gram.index.RecallRequest.Stop}). See {@code docs/recall.md}
 * for the modes, the exact-mode and date rules, and the measurements behind the choices.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>The index sits above the store and below the tools: it may use {@code dev.gram.store},
 * {@code dev.gram.edit}, {@code dev.gram.format} and the ground floor ({@code dev.gram.base},
 * {@code dev.gram.async}), never {@code dev.gram.tools}, {@code dev.gram.protocol}, {@code
 * dev.gram.transport} or {@code dev.gram.server}. It never writes the vault: it only reads
 * snapshots and listens to commits. What a tool answers is shaped by the tool, not here.
 */
package dev.gram.index;
