package dev.gram.tools;

import dev.gram.format.Entity;
import dev.gram.format.Revision;
import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import dev.gram.tools.support.Budget;
import dev.gram.base.DateSpan;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Inputs;
import dev.gram.tools.support.Limits;
import dev.gram.tools.support.RecordFacts;
import dev.gram.tools.support.Scope;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code gram_brief}: where to start in a folder ({@code folder}), one document ({@code path}) or,
 * with neither, the whole vault. Answers {@code {scope, docs, counts, open, recent, next}}:
 *
 * <ul>
 *   <li>{@code docs}: {@code [path, title, rev, hash, last recorded, last effective]}, most
 *       recently written first; rev and hash are the CAS pair for gram_patch; last effective is
 *       the latest {@code effective_at} any revision gave (as written), or null;
 *   <li>{@code counts}: records by type (REL edges count as {@code relation});
 *   <li>{@code open}: {@code [path#id, type, title, status, priority]} for work types ({@link
 *       dev.gram.format.EntityType#isWork}) that have a status and it is neither proposed nor
 *       finished ({@link RecordFacts#isOpenWork}) — blockers, then risks, then the rest; high
 *       priority first within each, then by path and source order;
 *   <li>{@code recent}: {@code [path, rev, recorded, effective, by, "+added ~changed -removed"]},
 *       newest first;
 *   <li>{@code next}: the newest recorded time in the scope, to pass to gram_changes {@code since}
 *       next time (now, when the scope has no revisions).
 * </ul>
 *
 * <p>{@code limit} (default {@link Limits#BRIEF_DEFAULT}, at most {@link Limits#BRIEF_MAX}) bounds
 * each of docs, open and recent; if the answer is still over budget the longest list is shortened.
 * {@code omitted} counts what was left out of each list, when anything was.
 */
public final class GramBrief extends ReadTool {

  public GramBrief(GramContext ctx) {
    super(ctx, "gram_brief");
  }

  @Override
  public String description() {
    return "Start here. Orients you in a project folder (folder), one document (path) or the "
        + "whole vault: docs as [path, title, rev, hash, last recorded, last effective] (rev and "
        + "hash are what gram_patch needs), record counts by type, open work as [path#id, type, "
        + "title, status, priority] (blockers and risks first; proposed and finished work left "
        + "out), recent revisions as [path, rev, recorded, effective, by, \"+added ~changed "
        + "-removed\"], and next: pass it as since to gram_changes on your next visit. limit bounds "
        + "each list. To hear other agents' writes meanwhile, subscribe to the folder's resource "
        + "(gram://<folder>/); notifications are hints, gram_changes is the record.";
  }

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    int limit = GramList.orDefault(Inputs.integer(args, "limit", 1, Limits.BRIEF_MAX), Limits.BRIEF_DEFAULT);
    return Scope.of(ctx, Inputs.string(args, "folder"), Inputs.string(args, "path"))
        .compose(
            scope ->
                scope.single()
                    ? Future.succeededFuture(brief(scope, limit, deadline))
                    : offLoop(deadline, () -> brief(scope, limit, deadline)));
  }

  /** A document's row with what it sorts by. */
  private record DocRow(JsonArray row, Instant last, String path) {}

  private record Open(JsonArray row, Entity entity, String path, int index) {}

  private record Recent(JsonArray row, Instant at, String path, int rev) {}

  private JsonObject brief(Scope scope, int limit, Deadline deadline) {
    List<DocRow> docs = new ArrayList<>();
    Map<String, Integer> counts = new TreeMap<>();
    List<Open> open = new ArrayList<>();
    List<Recent> recent = new ArrayList<>();
    Instant newest = null;
    for (DocSnapshot s : scope.docs()) {
      deadline.check();
      List<Revision> revs = s.history() == null ? List.of() : s.history().revisions();
      Instant last = revs.isEmpty() ? null : revs.get(revs.size() - 1).recordedAt();
      if (last != null && (newest == null || last.isAfter(newest))) {
        newest = last;
      }
      docs.add(
          new DocRow(
              new JsonArray()
                  .add(s.path())
                  .add(s.state() == null ? null : s.state().title())
                  .add(s.rev())
                  .add(s.shortHash())
                  .add(last == null ? null : Times.format(last))
                  .add(lastEffective(revs)),
              last,
              s.path()));
      // Only the newest revisions of each document can be among the newest of the scope.
      for (int i = revs.size() - 1; i >= 0 && i >= revs.size() - limit; i--) {
        Revision r = revs.get(i);
        recent.add(
            new Recent(
                new JsonArray()
                    .add(s.path())
                    .add(r.rev())
                    .add(Times.format(r.recordedAt()))
                    .add(r.effectiveAt())
                    .add(r.by())
                    .add(r.countSummary()),
                r.recordedAt(),
                s.path(),
                r.rev()));
      }
      if (s.state() == null) {
        continue;
      }
      List<Entity> records = s.state().records();
      for (int i = 0; i < records.size(); i++) {
        Entity e = records.get(i);
        counts.merge(e.type().typeName(), 1, Integer::sum);
        if (RecordFacts.isOpenWork(e)) {
          open.add(
              new Open(
                  new JsonArray()
                      .add(s.path() + "#" + e.id())
                      .add(e.type().typeName())
                      .add(e.title())
                      .add(RecordFacts.status(e))
                      .add(RecordFacts.priority(e)),
                  e,
                  s.path(),
                  i));
        }
      }
    }
    docs.sort(
        Comparator.comparing((DocRow d) -> d.last() == null ? Instant.MIN : d.last())
            .reversed()
            .thenComparing(DocRow::path));
    open.sort(
        Comparator.comparingInt((Open o) -> RecordFacts.workRank(o.entity()))
            .thenComparingInt(o -> RecordFacts.priorityRank(o.entity()))
            .thenComparing(Open::path)
            .thenComparingInt(Open::index));
    recent.sort(
        Comparator.comparing(Recent::at)
            .reversed()
            .thenComparing(Recent::path)
            .thenComparing(Comparator.comparingInt(Recent::rev).reversed()));
    JsonObject countsJson = new JsonObject();
    counts.forEach(countsJson::put);
    List<JsonArray> docRows = new ArrayList<>(docs.stream().map(DocRow::row).toList());
    List<JsonArray> openRows = new ArrayList<>(open.stream().map(Open::row).toList());
    List<JsonArray> recentRows = new ArrayList<>(recent.stream().map(Recent::row).toList());
    int docTotal = docRows.size();
    int openTotal = openRows.size();
    int recentTotal = scope.docs().stream().mapToInt(s -> s.history() == null ? 0 : s.history().revisions().size()).sum();
    List<List<JsonArray>> lists = List.of(docRows, openRows, recentRows);
    for (List<JsonArray> l : lists) {
      while (l.size() > limit) {
        l.remove(l.size() - 1);
      }
    }
    // Never past what every reader can already see: a revision still being made durable
    // elsewhere would otherwise fall before the next visit's since.
    Instant visible = ctx.reader().visibleThrough();
    Instant nextTime = newest == null || newest.isAfter(visible) ? visible : newest;
    String next = Times.format(nextTime);
    JsonObject answer;
    while (true) {
      answer =
          new JsonObject()
              .put("counts", countsJson)
              .put("docs", new JsonArray(new ArrayList<>(docRows)))
              .put("next", next)
              .put("open", new JsonArray(new ArrayList<>(openRows)))
              .put("recent", new JsonArray(new ArrayList<>(recentRows)))
              .put("scope", scope.label());
      JsonObject omitted = new JsonObject();
      putOmitted(omitted, "docs", docTotal - docRows.size());
      putOmitted(omitted, "open", openTotal - openRows.size());
      putOmitted(omitted, "recent", recentTotal - recentRows.size());
      if (!omitted.isEmpty()) {
        answer.put("omitted", omitted);
      }
      if (Budget.fits(answer)) {
        return answer;
      }
      List<JsonArray> longest = docRows;
      for (List<JsonArray> l : lists) {
        if (Budget.size(new JsonArray(new ArrayList<>(l))) > Budget.size(new JsonArray(new ArrayList<>(longest)))) {
          longest = l;
        }
      }
      if (longest.isEmpty()) {
        throw Budget.tooLarge("the brief of " + scope.label());
      }
      longest.remove(longest.size() - 1);
    }
  }

  private static void putOmitted(JsonObject o, String key, int n) {
    if (n > 0) {
      o.put(key, n);
    }
  }

  /** The latest effective_at any revision gave, as written; null when none gave one. */
  private static String lastEffective(List<Revision> revs) {
    String best = null;
    Instant when = null;
    for (Revision r : revs) {
      if (r.effectiveAt() == null) {
        continue;
      }
      DateSpan span = DateSpan.parse(r.effectiveAt());
      Instant t = span == null ? null : span.start();
      if (best == null || (t != null && (when == null || !t.isBefore(when)))) {
        best = r.effectiveAt();
        when = t;
      }
    }
    return best;
  }
}
