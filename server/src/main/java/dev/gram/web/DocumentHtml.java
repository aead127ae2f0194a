package dev.gram.web;

import dev.gram.format.Entity;
import dev.gram.format.GramDocument;
import dev.gram.format.body.Body;
import dev.gram.format.body.BodyNode;
import dev.gram.format.body.NodeType;
import dev.gram.tools.support.BodyRefs;
import dev.gram.tools.support.Selections;
import dev.gram.tools.support.ShownAs;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The renderer: one document as the profile says it is shown, as HTML. The body's blocks in
 * order (headings, paragraphs, nested lists, tables, quotes and callouts, code, math as its TeX
 * source, dividers, images), each record a {@code [[id]]} places as its item view, each {@code
 * [[*]]{…}} collection as a list, a table or a board, mentions as links to their record; then the
 * records the body does not place, so that every record of the document has its place on the page.
 *
 * <p>Which view a placed record or a collection gets is decided where the tools decide it
 * ({@link ShownAs}, {@link Selections}), so a person sees what {@code gram_get}'s outline says;
 * the exception is {@code view=board}, which the profile leaves to applications and this one shows
 * as a board. Every block carries {@code data-node} (its node id) and {@code data-type}; every
 * record view {@code data-shown}, so tests and scripts can check the page against the rules.
 *
 * <p>Pure: a function of the state, the references it resolves and the {@link Frame}; no I/O and
 * no shared state, so it runs on any thread and never slows a tool.
 */
public final class DocumentHtml {

  /**
   * What a render needs besides the document.
   *
   * @param path the document's path
   * @param self the address of the page being rendered (a past revision's page links to itself)
   * @param refs what the body's references resolve to
   * @param pathOfDocumentId the path of another document by its id, or null when unknown
   * @param editable whether the person may change this state (the current one, and allowed)
   * @param changed records the latest revision changed, marked on the page
   */
  public record Frame(
      String path,
      String self,
      BodyRefs refs,
      Function<String, String> pathOfDocumentId,
      boolean editable,
      Set<String> changed) {}

  private final Frame frame;
  private final GramDocument doc;
  private final InlineMd inline;
  private final RecordHtml records;
  private final Set<String> placed = new HashSet<>();

  public DocumentHtml(Frame frame) {
    this.frame = frame;
    this.doc = frame.refs().document();
    this.inline = new InlineMd(new Targets());
    this.records = new RecordHtml(frame, inline);
  }

  /** The body, then the records it does not place. */
  public String render() {
    StringBuilder out = new StringBuilder(4096 + doc.records().size() * 360);
    body(out);
    unplaced(out);
    return out.toString();
  }

  void body(StringBuilder out) {
    List<BodyNode> nodes = Body.parse(doc.body()).nodes();
    out.append("<div class=\"body\">");
    for (BodyNode n : nodes) {
      if (n.type() == NodeType.ITEM && n.ref().indexOf('/') < 0) {
        placed.add(n.ref());
      }
    }
    for (BodyNode n : nodes) {
      block(out, n);
    }
    if (nodes.isEmpty()) {
      out.append("<p class=\"muted\">This document has no body.</p>");
    }
    out.append("</div>");
  }

  void unplaced(StringBuilder out) {
    List<Entity> rest = new ArrayList<>();
    for (Entity r : doc.records()) {
      if (!placed.contains(r.id())) {
        rest.add(r);
      }
    }
    if (rest.isEmpty()) {
      return;
    }
    out.append("<section class=\"unplaced\" aria-labelledby=\"unplaced-h\"><h2 id=\"unplaced-h\">")
        .append("Records not placed in the body <span class=\"count\">(").append(rest.size())
        .append(")</span></h2>");
    for (Entity r : rest) {
      records.item(out, "", new BodyRefs.Ref(r.id(), r, doc), ShownAs.of(itemNode(r.id()), frame.refs()));
    }
    out.append("</section>");
  }

  private static BodyNode itemNode(String ref) {
    return new BodyNode("", NodeType.ITEM, 0, 0, "[[" + ref + "]]", 0, null, ref, null, null);
  }

  private void block(StringBuilder out, BodyNode n) {
    switch (n.type()) {
      case HEADING -> {
        int level = Math.min(6, n.level() + 1);
        out.append("<h").append(level);
        node(out, n);
        out.append('>');
        inline.append(out, n.text());
        out.append("</h").append(level).append('>');
      }
      case PARAGRAPH -> {
        out.append("<p");
        node(out, n);
        out.append('>');
        inline.append(out, n.text());
        out.append("</p>");
      }
      case LIST -> list(out, n);
      case TABLE -> table(out, n);
      case QUOTE -> {
        out.append("<blockquote");
        node(out, n);
        out.append('>');
        paragraphs(out, n.text());
        out.append("</blockquote>");
      }
      case CALLOUT -> {
        String kind = n.attrs().getOrDefault("kind", "note");
        out.append("<aside class=\"callout callout-");
        Html.text(out, kind.replaceAll("[^a-z0-9-]", ""));
        out.append('"');
        node(out, n);
        Html.attr(out, "aria-label", capitalize(kind));
        out.append("><p class=\"callout-kind\">");
        Html.text(out, capitalize(kind));
        out.append("</p>");
        paragraphs(out, n.text());
        out.append("</aside>");
      }
      case CODE -> {
        String lang = n.attrs().get("lang");
        out.append("<figure class=\"code\"");
        node(out, n);
        out.append('>');
        if (lang != null) {
          out.append("<figcaption class=\"muted\">");
          Html.text(out, lang);
          out.append("</figcaption>");
        }
        out.append("<pre tabindex=\"0\"><code");
        if (lang != null) {
          Html.attr(out, "class", "language-" + lang);
        }
        out.append('>');
        Html.text(out, n.text());
        out.append("</code></pre></figure>");
      }
      case MATH -> {
        out.append("<figure class=\"math\"");
        node(out, n);
        out.append("><figcaption class=\"muted\">Math (TeX source)</figcaption><pre tabindex=\"0\"><code>");
        Html.text(out, n.text());
        out.append("</code></pre></figure>");
      }
      case DIVIDER -> {
        out.append("<hr");
        node(out, n);
        out.append('>');
      }
      case IMAGE -> {
        out.append("<figure class=\"body-image\"");
        node(out, n);
        out.append('>');
        records.picture(out, n.ref(), n.attrs().getOrDefault("alt", ""));
        String alt = n.attrs().getOrDefault("alt", "");
        if (!alt.isBlank()) {
          out.append("<figcaption class=\"muted\">");
          Html.text(out, alt);
          out.append("</figcaption>");
        }
        out.append("</figure>");
      }
      case ITEM -> {
        BodyRefs.Ref r = frame.refs().resolve(n.ref());
        records.item(out, n.id(), r, r == null ? "unresolved" : ShownAs.of(n, frame.refs()), n.ref());
      }
      case COLLECTION -> {
        List<Entity> selected = Selections.select(doc, n.attrs());
        String view = n.attrs().getOrDefault("view", "").strip().toLowerCase(Locale.ROOT);
        records.collection(out, n, selected,
            view.equals("board") ? "board" : Selections.shownAs(n.attrs(), selected));
      }
    }
  }

  static void node(StringBuilder out, BodyNode n) {
    Html.attr(out, "data-node", n.id());
    Html.attr(out, "data-type", n.type().wire());
  }

  private void paragraphs(StringBuilder out, String text) {
    for (String para : text.split("\n\\s*\n")) {
      if (!para.isBlank()) {
        out.append("<p>");
        inline.append(out, para);
        out.append("</p>");
      }
    }
  }

  private void list(StringBuilder out, BodyNode n) {
    List<BodyNode.ListItem> items = n.items();
    // Open lists by depth; an item deeper than the one before opens a list inside it.
    List<Boolean> open = new ArrayList<>();
    out.append("<div class=\"list\"");
    node(out, n);
    out.append('>');
    for (BodyNode.ListItem item : items) {
      int depth = Math.min(item.depth(), open.size());
      while (open.size() > depth + 1) {
        out.append("</li>");
        closeList(out, open);
      }
      if (open.size() == depth + 1) {
        out.append("</li>");
        if (open.get(depth) != item.ordered()) {
          closeList(out, open);
        }
      }
      if (open.size() == depth) {
        out.append(item.ordered() ? "<ol>" : "<ul>");
        open.add(item.ordered());
      }
      out.append("<li>");
      inline.append(out, item.text());
    }
    while (!open.isEmpty()) {
      out.append("</li>");
      closeList(out, open);
    }
    out.append("</div>");
  }

  /** Closes the innermost list; the item of the list around it that holds it stays open. */
  private static void closeList(StringBuilder out, List<Boolean> open) {
    boolean ordered = open.remove(open.size() - 1);
    out.append(ordered ? "</ol>" : "</ul>");
  }

  private void table(StringBuilder out, BodyNode n) {
    List<String> lines = n.md().lines().toList();
    out.append("<div class=\"table-wrap\" tabindex=\"0\"");
    Html.attr(out, "role", "region");
    Html.attr(out, "aria-label", "Table");
    out.append("><table");
    node(out, n);
    out.append('>');
    for (int i = 0; i < lines.size(); i++) {
      if (i == 1) {
        continue;
      }
      if (i == 0) {
        out.append("<thead>");
      } else if (i == 2) {
        out.append("<tbody>");
      }
      out.append("<tr>");
      for (Object cell : dev.gram.edit.RichCodec.splitRow(lines.get(i))) {
        out.append(i == 0 ? "<th scope=\"col\">" : "<td>");
        inline.append(out, (String) cell);
        out.append(i == 0 ? "</th>" : "</td>");
      }
      out.append("</tr>");
      if (i == 0) {
        out.append("</thead>");
      }
    }
    if (lines.size() > 2) {
      out.append("</tbody>");
    }
    out.append("</table></div>");
  }

  static String capitalize(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** Mentions lead to their record, links between documents to the document's page. */
  private final class Targets implements InlineMd.Targets {
    @Override
    public String mention(String ref) {
      BodyRefs.Ref r = frame.refs().resolve(ref);
      if (r == null) {
        return null;
      }
      return records.href(r);
    }

    @Override
    public String link(String target) {
      return Links.target(target, frame.pathOfDocumentId());
    }
  }
}
