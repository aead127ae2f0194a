package dev.gram.tools.support;

import dev.gram.format.EntityType;
import dev.gram.format.body.BodyNode;

/**
 * How an application shows a top-level body block, for gram_get's outline: a placed record is
 * {@code task-row} (a task), {@code metric}, {@code image} (a picture asset), {@code line} (any
 * other record) or {@code unresolved} (nothing readable); a collection is {@code list} or {@code
 * table} (see {@link Selections#shownAs}); every other block is shown as what it is ({@code
 * heading}, {@code paragraph}, {@code image} …).
 */
public final class ShownAs {
  private ShownAs() {}

  public static String of(BodyNode n, BodyRefs refs) {
    switch (n.type()) {
      case ITEM: {
        BodyRefs.Ref r = refs.resolve(n.ref());
        if (r == null) {
          return "unresolved";
        }
        if (r.entity().type() == EntityType.TASK) {
          return "task-row";
        }
        if (r.entity().type() == EntityType.METRIC) {
          return "metric";
        }
        return RecordFacts.isImageAsset(r.entity()) ? "image" : "line";
      }
      case COLLECTION:
        return Selections.shownAs(n.attrs(), Selections.select(refs.document(), n.attrs()));
      default:
        return n.type().wire();
    }
  }

  /** The outline label: a placed record's title, otherwise the block's own short label. */
  public static String label(BodyNode n, BodyRefs refs) {
    if (n.type() == dev.gram.format.body.NodeType.ITEM) {
      BodyRefs.Ref r = refs.resolve(n.ref());
      if (r != null) {
        return PlainText.cut(r.entity().title().replace('\n', ' '), 80);
      }
    }
    return n.label();
  }
}
