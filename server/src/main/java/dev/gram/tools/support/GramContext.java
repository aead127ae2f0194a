package dev.gram.tools.support;

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
 * @param reader the documents as readers see them
 * @param writer where writes go: the seam a cluster would route through
 */
public record GramContext(
    Vertx vertx,
    DocumentReader reader,
    DocumentWriter writer,
    IndexStatus index,
    Recall recall,
    ToolSettings settings,
    Clock clock) {
}
