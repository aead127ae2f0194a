package dev.gram.tools.support;

import dev.gram.access.Identity;
import dev.gram.gate.Gate;
import dev.gram.index.IndexStatus;
import dev.gram.index.Recall;
import dev.gram.store.DocumentReader;
import dev.gram.store.DocumentWriter;
import io.vertx.core.Vertx;
import java.time.Clock;

/**
 * What every tool may use: the store through its two interfaces (snapshots, paths and listings to
 * read; commands to write), the search index's status, the tools' settings and the clock.
 *
 * <p>A context serves one caller: the server's own, built once, serves callers with every
 * approval; {@link #within} gives the one a restricted caller's call uses, whose reader and
 * writer are that caller's gate.
 *
 * @param reader the documents as readers see them
 * @param writer where writes go: the seam a cluster would route through
 * @param caller whom this context serves
 */
public record GramContext(
    Vertx vertx,
    DocumentReader reader,
    DocumentWriter writer,
    IndexStatus index,
    Recall recall,
    ToolSettings settings,
    Clock clock,
    Identity caller) {

  /** The server's context: the store itself, for callers with every approval. */
  public GramContext(
      Vertx vertx,
      DocumentReader reader,
      DocumentWriter writer,
      IndexStatus index,
      Recall recall,
      ToolSettings settings,
      Clock clock) {
    this(vertx, reader, writer, index, recall, settings, clock, Identity.local());
  }

  /** This context as {@code who} may use it: the store through that caller's gate. */
  public GramContext within(Identity who) {
    return new GramContext(
        vertx, Gate.reader(reader, who), Gate.writer(writer, who), index, recall, settings, clock, who);
  }

  /** True when this context withholds nothing: answers are the vault's as a whole. */
  public boolean unrestricted() {
    return Gate.unrestricted(caller);
  }
}
