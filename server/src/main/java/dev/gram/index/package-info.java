/**
 * The search index behind {@code gram_recall}: Lucene, kept in step with the vault, with keyword,
 * exact, semantic and hybrid retrieval.
 *
 * <h2>What is indexed</h2>
 *
 * <p>Every document of the vault and its mounts becomes one <em>block</em> of Lucene documents,
 * all carrying the document's path and replaced together with one {@code updateDocuments} call
 * ({@link dev.gram.index.DocMapper}):
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
 * <h2>Reading your writes without a refresh per write</h2>
 *
 * <p>The vault calls the index ({@link dev.gram.store.CommitListener}) on the document's actor
 * thread for every new state, before a write's receipt is returned. For a commit the index only
 * queues the state (the newest per document) and hands out a ticket, so the receipt never waits
 * for Lucene. The index's live thread takes the queue, plans the document's units and rewrites
 * only those whose content changed (an unchanged record is the same immutable object as before:
 * one identity check), and raises the <em>live generation</em> to the sequence number Lucene
 * returned ({@link dev.gram.index.LiveIndex}). A recall takes the queue's ticket when it arrives,
 * waits until the live thread has indexed through it, and then, on the search pool, until the
 * searcher includes the live generation. The waiting is done by
 * Lucene's {@code ControlledRealTimeReopenThread}: it reopens at once when someone waits and
 * otherwise every half second, and one reopen serves every write committed and every reader
 * waiting meanwhile. So writes never pay for a refresh, a reader pays at most one shared refresh,
 * and only if a write happened since the last one. Small new segments stay in memory ({@code
 * NRTCachingDirectory}), so that refresh writes no files.
 *
 * <h2>Starting, and documents changed by other programs</h2>
 *
 * <p>At open, the fingerprints stored in the index are read. The vault then loads every document
 * in the background and tells the index of each; a document whose fingerprint matches is known
 * to be indexed and costs nothing, any other one is queued for the <em>rebuild</em> thread, and a
 * path the index holds but the vault no longer has is removed once the vault has finished
 * loading. Meanwhile the server answers: recall searches what is indexed so far and says {@code
 * partial} with the number of documents pending ({@link dev.gram.index.RecallIndex}). A long
 * rebuild shows its progress on stderr ({@link dev.gram.index.Progress}). A document that cannot
 * be parsed is removed from the index and counted as failed; it never stops the others, and once
 * repaired it is indexed again. Edits by other programs arrive through the vault's file watcher as
 * new states, like commits.
 *
 * <p>Every change to one document's block — commit, rebuild, embedder — holds that path's lock,
 * and the rebuild and the embedder write only what is still the vault's current state, so a slow
 * background write never overwrites a newer commit.
 *
 * <p>The index is derived data: one that cannot be read, or was written by another version of the
 * mapping ({@link dev.gram.index.Schema#VERSION}) or another embedding model, is emptied and
 * rebuilt; one whose folder another process holds is replaced by an index in memory.
 *
 * <h2>Semantic search</h2>
 *
 * <p>The model ({@link dev.gram.index.EmbeddingModel}, all-MiniLM-L6-v2 quantized, run by ONNX
 * Runtime inside this process) is loaded and probed in the background, once per process. Until it
 * answers, or if it cannot load, or if {@code --no-semantic} turned it off, semantic and hybrid
 * requests are answered in keyword mode with the reason ({@link dev.gram.index.SemanticState}),
 * and {@code gram_capabilities} reports the same reason. Vectors are computed by one thread,
 * never on an event loop and never inside a write: a commit indexes its text at once and queues
 * its document for the embedder, which embeds only the chunks whose text has no vector yet (in
 * the index or a small cache), 32 at a time, then writes the block again if the document has not
 * changed meanwhile. Batching at the ONNX level (one padded tensor per batch) was measured and
 * was not faster for this quantized model on CPU.
 *
 * <h2>Searching</h2>
 *
 * <p>{@link dev.gram.index.Queries} builds the lexical queries and the filters; filters are
 * Lucene filter clauses (and the kNN query's filter), so the ranking is computed among matching
 * units only and a filter never shortens a page. Hits are collapsed to one per entity (a
 * document's best section); when a page is short after collapsing, the search fetches deeper.
 * Hybrid fuses the keyword and semantic rankings by reciprocal rank fusion. See {@code
 * docs/recall.md} for the modes, the exact-mode and date rules, and the measurements behind the
 * choices.
 */
package dev.gram.index;
