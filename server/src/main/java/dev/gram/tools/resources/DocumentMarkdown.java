package dev.gram.tools.resources;

import dev.gram.format.GramDocument;
import dev.gram.format.body.Body;
import dev.gram.format.body.BodyNode;
import dev.gram.format.body.NodeType;
import dev.gram.store.DocSnapshot;
import dev.gram.tools.support.BodyRefs;
import dev.gram.tools.support.SectionMd;
import java.util.List;

/**
 * A whole document as readable Markdown, by gram_read's rules ({@link SectionMd}): text as
 * written, placed records as record lines, collections as headings per type, images as image
 * references. A body that does not open with a level-1 heading gets the title as one, so the
 * resource reads as a document on its own.
 */
final class DocumentMarkdown {
  private DocumentMarkdown() {}

  static String render(DocSnapshot snapshot, BodyRefs refs) {
    GramDocument state = snapshot.requireState();
    List<BodyNode> nodes = Body.parse(state.body()).nodes();
    String body = SectionMd.render(nodes, 0, refs);
    boolean titled =
        !nodes.isEmpty() && nodes.get(0).type() == NodeType.HEADING && nodes.get(0).level() == 1;
    if (titled) {
      return body;
    }
    String heading = "# " + (state.title() == null || state.title().isBlank() ? snapshot.path() : state.title());
    return body.isEmpty() ? heading : heading + "\n\n" + body;
  }
}
