/**
 * The document store: the vault folder and its mounts, one write actor per document, durable
 * commits, request ids, edits made by other programs, and immutable snapshots for readers.
 *
 * <h2>What it owns</h2>
 *
 * <ul>
 *   <li>The seam: {@link dev.gram.store.DocumentReader} (snapshots, listings, the paths agents may
 *       name, the time through which every revision is visible) and {@link
 *       dev.gram.store.DocumentWriter} ({@link dev.gram.store.WriteCommand}s in, {@link
 *       dev.gram.store.CommitReceipt}s out). Everything above the store uses these two; {@link
 *       dev.gram.store.Vault} implements both for one node, and only the server, which wires it,
 *       holds it as a {@code Vault}.
 *   <li>Paths: {@link dev.gram.store.PathResolver} turns what an agent sent into a {@link
 *       dev.gram.store.VaultPath}, refusing with the contract's messages whatever could leave the
 *       vault, hide, or write where it may not.
 *   <li>Writes: {@code DocumentActor}, one per document, runs its loads, reloads and commits one
 *       at a time on the vault's I/O pool (a {@link dev.gram.async.SerialExecutor} mailbox); a
 *       revision is durable once {@code WriteAheadLog} has appended it and an fdatasync shared
 *       with the other commits waiting at that moment has returned (group commit); the {@code
 *       Checkpointer} folds logged revisions into each file within the checkpoint lag (longer
 *       for a large file), through {@code DurableFiles} (temporary file, fsync, rename, folder
 *       fsync), and deletes what the files now hold; at start {@code LogReader} reads the log
 *       and {@code Replay} brings each document up to date as it loads. {@code RequestIndex} and {@link
 *       dev.gram.store.RequestDigest} bind each request_id to one intent across the vault.
 *   <li>Reads: {@link dev.gram.store.DocSnapshot}, the immutable view of a document's latest
 *       revision, swapped atomically after each commit; {@code DocumentLoader} reads a file into
 *       one; {@code VaultScan} loads every document at start; {@code VaultWatcher} notices edits
 *       made by other programs, which become revisions of their own.
 *   <li>Telling others: {@link dev.gram.store.CommitListener}s hear of every new state, in commit
 *       order, before the write's receipt is returned (the search index keeps in step this way).
 * </ul>
 *
 * <h2>Design</h2>
 *
 * <p>Readers never wait for writers: they take the latest snapshot, and a reader holding one keeps
 * a consistent view however many commits follow. A write is checked inside its document's
 * mailbox — the file unchanged since the last snapshot, the request_id unused or bound to the same
 * intent, the caller's base revision and hash current — then applied by the {@link
 * dev.gram.edit.PatchEngine} (pure), logged durably, published, recorded, and announced. Its CPU
 * follows the change, not the document: the actor keeps the state's canonical text entity by
 * entity ({@link dev.gram.format.CanonicalText}). One process holds a vault's log; a second one
 * is refused at start ({@link dev.gram.store.VaultInUseException}). Commands
 * are plain data and name their document's path, so the cluster ({@code dev.gram.cluster}) routes
 * each one to the node that owns that path. A cluster node joins through {@link
 * dev.gram.store.Peers}: the actor hands each durable revision to the other nodes before
 * its receipt, fences the document's head with them, and applies theirs ({@code follow}) as
 * recovery replays a log record; each node keeps its own log under {@code .gram-wal/nodes/}, and
 * {@link dev.gram.store.OrphanLog} is how a survivor reads the log of one that stopped.
 *
 * <h2>Errors</h2>
 *
 * <p>The store raises what it finds as a {@link dev.gram.base.GramException} with the contract's
 * code and message: a path that leaves the vault ({@code E_PATH}), a read-only mount, a document
 * that cannot be read ({@code E_INTEGRITY}), a commit whose durability is unknown. A conflict the
 * caller recovers from carries typed facts, not client JSON: {@link
 * dev.gram.store.StaleRevisionException} (the document as the write found it, and the caller's
 * base) and {@link dev.gram.store.RequestReuseException} (where the request_id was used). Giving
 * them the shape a client reads is the tools' and the protocol's business.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>Nothing above it: no {@code index}, {@code tools}, {@code protocol}, {@code transport} or
 * {@code server} import ({@code ArchitectureTest} checks this). It may use {@code dev.gram.edit},
 * {@code dev.gram.format}, {@code dev.gram.async} and {@code dev.gram.base}. All file I/O runs on
 * the vault's I/O pool, never on an event loop.
 */
package dev.gram.store;
