/**
 * The concurrency primitives the rest of the server builds on, usable by every layer.
 *
 * <ul>
 *   <li>{@link dev.gram.async.Async#run}: work that must not run on an event loop (file I/O,
 *       fsync, Lucene) runs on an executor, and its result comes back on the caller's Vert.x
 *       context, so code composed on the returned {@code Future} runs where its author expects.
 *   <li>{@link dev.gram.async.SerialExecutor}: a mailbox that runs its tasks one at a time, in
 *       order, on a shared pool. The store gives each document one, which is what makes a
 *       document's writes serial while different documents write in parallel.
 *   <li>{@link dev.gram.async.Foreground} and {@link dev.gram.async.Background}: the agents' tool
 *       calls in flight, and the server's own work that no client waits for (vectors, the index's
 *       rebuild and merges, the start-up scan), which runs on a bounded share of threads at the
 *       lowest CPU priority and gives way to those calls between batches.
 * </ul>
 *
 * <h2>What it may not touch</h2>
 *
 * <p>No other {@code dev.gram} package but {@code dev.gram.base}: it knows threads, not
 * documents.
 */
package dev.gram.async;
