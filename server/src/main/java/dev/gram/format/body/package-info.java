/**
 * The Markdown-like body of a document, split into blocks ({@link dev.gram.format.body.BodyNode})
 * with stable node ids. An id is a content hash with an occurrence counter, so a block that did
 * not change keeps its id across revisions and a patch can name it ({@code insert},
 * {@code replace}, {@code drop}, {@code move}).
 *
 * <h2>What it may not touch</h2>
 *
 * <p>Pure, like {@code dev.gram.format}: no I/O, no threads; only {@code dev.gram.format} and
 * {@code dev.gram.base}.
 */
package dev.gram.format.body;
