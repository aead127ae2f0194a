/**
 * The ground floor: the vocabulary every layer shares, defined once.
 *
 * <ul>
 *   <li>{@link dev.gram.base.ErrorCode} and {@link dev.gram.base.GramException}: the contract's
 *       error codes and the one exception that carries a code, the contract's message and the
 *       details a caller needs to recover. A layer raises the error it finds (the store a stale
 *       revision, the patch engine a bad operation, a tool a stale cursor); the protocol layer
 *       alone gives it the shape a client sees.
 *   <li>{@link dev.gram.base.DateSpan}: how a date written as a year, a month, a day or an instant
 *       becomes a span of time, and the from/to filter of lists and recall.
 *   <li>{@link dev.gram.base.ResponseBudget}: the largest answer a tool may give.
 *   <li>{@link dev.gram.base.CompactJson}: the compact JSON text of an answer and of a reply's
 *       line, the same characters Vert.x writes, at the cost the first calls after a start can
 *       afford (the tools measure answers with it, the protocol layer and stdio write with it).
 *   <li>{@link dev.gram.base.JsonStrings}: what each character takes inside a JSON string, the one
 *       rule the writer, the budget's bound and the tools' pages count by.
 * </ul>
 *
 * <h2>What it may not touch</h2>
 *
 * <p>Nothing else of the server: a class here imports no other {@code dev.gram} package, so every
 * layer can use it without a cycle ({@code ArchitectureTest} checks this). It holds values and
 * rules, never state, threads or I/O. A new type belongs here only when two layers that cannot
 * see each other both need it.
 */
package dev.gram.base;
