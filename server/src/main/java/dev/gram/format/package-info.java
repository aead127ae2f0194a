/**
 * The {@code .gram} file: its model, a total parser, a canonical writer, the hash chain and the
 * history of every revision. {@code docs/gram-format.md} is the specification; this package is
 * its reference implementation.
 *
 * <h2>Model</h2>
 *
 * <p>A {@link dev.gram.format.GramDocument} is an owner ({@code doc}) and its records, each an
 * {@link dev.gram.format.Entity} of one {@link dev.gram.format.EntityType} with
 * {@link dev.gram.format.Field}s, {@link dev.gram.format.Link}s and {@link dev.gram.format.Block}s.
 * Every value is immutable: a new revision is a new document that shares what did not change.
 * {@link dev.gram.format.GramFile} is a whole file: the current state on top, then
 * {@code @history}.
 *
 * <h2>Reading and writing</h2>
 *
 * <p>{@link dev.gram.format.GramParser} accepts every file (it reports what it cannot read
 * instead of throwing), {@link dev.gram.format.GramWriter} writes the one canonical text of a
 * state, and {@link dev.gram.format.Hashes} hashes that text. {@link
 * dev.gram.format.CanonicalText} is the same text kept entity by entity, so that the text, hash
 * and delta of the next state cost only the entities a change touched. A revision
 * ({@link dev.gram.format.Revision}) records who, when, the effective time, the request id and
 * digest, the entity changes, a forward line delta ({@link dev.gram.format.LineDiff}) and the
 * state and chain hashes, held as the bytes of its entry in the file (every revision stays in
 * memory, so that is what one costs); {@link dev.gram.format.History} rebuilds any past state from the
 * nearest in-memory checkpoint. A broken chain is an
 * {@link dev.gram.format.IntegrityException}.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>Pure: no I/O, no threads, no clock. It may use {@code dev.gram.base} and nothing else of the
 * server; every other layer stands on it.
 */
package dev.gram.format;
