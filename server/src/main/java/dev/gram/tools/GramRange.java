package dev.gram.tools;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.Field;
import dev.gram.format.GramDocument;
import dev.gram.format.Link;
import dev.gram.format.Revision;
import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.Docs;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Inputs;
import dev.gram.tools.support.Limits;
import dev.gram.tools.support.Page;
import dev.gram.tools.support.Snapshots;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code gram_range}: the history events of one document, {@code {doc, events: [{actor, agent,
 * recorded_at, revision, effective_at?, request_id?, request_digest?}]}}. {@code actor} is {@code
 * agent} (written through the tools), {@code external} (another program edited the file) or
 * {@code import} (the file had no history); {@code agent} is who wrote it; {@code request_digest}
 * is the short form of the digest its request_id is bound to.
 *
 * <p>Without {@code query}: revisions from {@code start} (default 0) upward, at most {@code limit}
 * (default {@link Limits#RANGE_DEFAULT}) within the budget; {@code next_start} is where the next
 * page starts. With {@code query}: only revisions whose changes match it — the ids, types, titles,
 * changed keys and new values of the entities they touched, and who made them — ranked by a
 * BM25-style score (then newest first), at most {@code top_k} (default {@link
 * Limits#RANGE_TOP_K_DEFAULT}, at most {@link Limits#RANGE_TOP_K_MAX}); each carries {@code score}
 * and the {@code matched} entity ids.
 *
 * <p>{@code expected_hash} guards the read: when the document's current hash is not that one, the
 * answer is {@code STALE_READ} with the current {@code rev} and {@code hash}.
 */
public final class GramRange extends ReadTool {
  static final String CHANGED = "The document changed while it was read; read again";

  public GramRange(GramContext ctx) {
    super(ctx, "gram_range");
  }

  @Override
  public String description() {
    return "The history of one document: each revision as an event with actor (agent, external "
        + "for an edit by another program, import for a file that had no history), agent, "
        + "recorded_at, revision, and effective_at, request_id and request_digest when it has "
        + "them. start and limit page through it (next_start continues). With query, only the "
        + "revisions whose changes match it, best first, up to top_k, with score and matched ids. "
        + "expected_hash makes the read fail with STALE_READ if the document is no longer at that hash.";
  }

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    String path = Inputs.string(args, "path");
    if (path == null) {
      throw Inputs.bad("path is required");
    }
    String expected = Inputs.string(args, "expected_hash");
    String query = Inputs.string(args, "query");
    int start = GramList.orDefault(Inputs.integer(args, "start", 0, Integer.MAX_VALUE), 0);
    int limit = GramList.orDefault(Inputs.integer(args, "limit", 1, Limits.RANGE_MAX), Limits.RANGE_DEFAULT);
    int topK = Math.min(Limits.RANGE_TOP_K_MAX, GramList.orDefault(Inputs.integer(args, "top_k", 1, Integer.MAX_VALUE), Limits.RANGE_TOP_K_DEFAULT));
    return Snapshots.read(ctx, path)
        .compose(
            s -> {
              if (expected != null && !hashMatches(expected, s.hash())) {
                throw new GramException(
                    ErrorCode.STALE_READ,
                    CHANGED,
                    Docs.identity(s).put("expected_hash", expected));
              }
              List<Revision> revs = s.revisions();
              if (query == null || query.isBlank()) {
                return Future.succeededFuture(page(s, revs, start, limit));
              }
              return offLoop(deadline, () -> search(s, revs, start, query, topK, deadline));
            });
  }

  static boolean hashMatches(String expected, String fullHash) {
    String e = expected.strip().toLowerCase(Locale.ROOT);
    return fullHash != null && e.length() >= 16 && fullHash.startsWith(e);
  }

  private static JsonObject event(Revision r) {
    JsonObject e =
        new JsonObject()
            .put("actor", r.actor())
            .put("agent", r.by())
            .put("recorded_at", Times.format(r.recordedAt()))
            .put("revision", r.rev());
    if (r.effectiveAt() != null) {
      e.put("effective_at", r.effectiveAt());
    }
    if (r.requestId() != null) {
      e.put("request_id", r.requestId());
    }
    if (r.digest() != null) {
      e.put("request_digest", r.digest().substring(0, 16));
    }
    return e;
  }

  private static JsonObject page(DocSnapshot s, List<Revision> revs, int start, int limit) {
    JsonArray events = new JsonArray();
    JsonObject answer = new JsonObject().put("doc", Docs.identity(s)).put("events", events);
    Page page = new Page(answer);
    int i = start;
    while (i < revs.size() && events.size() < limit) {
      JsonObject e = event(revs.get(i));
      if (!page.take(e)) {
        break;
      }
      events.add(e);
      i++;
    }
    if (i < revs.size()) {
      answer.put("next_start", i);
    }
    return answer;
  }

  // ------------------------------------------------------------------ query

  /** Words of a text: letters and digits, lowercased. */
  static List<String> terms(String text) {
    List<String> out = new ArrayList<>();
    for (String t : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return out;
  }

  /** What one revision says, per entity it touched, as words. */
  private record Said(Revision revision, Map<String, List<String>> byEntity, List<String> all) {}

  /**
   * @param before the state the revision started from (null for the create)
   * @param now the state it left
   */
  private static Said said(Revision r, GramDocument before, GramDocument now) {
    Map<String, List<String>> byEntity = new java.util.LinkedHashMap<>();
    List<String> all = new ArrayList<>(terms(r.by() + " " + (r.requestId() == null ? "" : r.requestId()) + " " + (r.effectiveAt() == null ? "" : r.effectiveAt())));
    for (Revision.Change c : r.changes()) {
      boolean owner = c.id().equals(now.id()) || (before != null && c.id().equals(before.id()));
      String shown = owner ? "doc" : c.id();
      StringBuilder text = new StringBuilder(shown).append(' ').append(c.id());
      Entity e = c.kind() == Revision.Kind.DEL ? (before == null ? null : before.entity(c.id())) : now.entity(c.id());
      if (e != null) {
        text.append(' ').append(e.type().typeName()).append(' ').append(e.title());
        boolean everything = c.kind() != Revision.Kind.SET;
        for (Field f : e.fields()) {
          if (everything || c.keys().contains(f.key())) {
            text.append(' ').append(f.key()).append(' ').append(String.join(" ", f.values()));
          }
        }
        if (everything || c.keys().contains("links")) {
          for (Link l : e.links()) {
            text.append(' ').append(l.predicate()).append(' ').append(l.target());
          }
        }
        for (Block b : e.blocks()) {
          String key = e.isOwner() && b.name().equals(Block.RICH) ? "body" : b.name();
          if (everything || c.keys().contains(key)) {
            String t = b.text();
            text.append(' ').append(key).append(' ').append(t, 0, Math.min(t.length(), 4_000));
          }
        }
      }
      for (String k : c.keys()) {
        text.append(' ').append(k);
      }
      List<String> words = terms(text.toString());
      byEntity.computeIfAbsent(shown, k -> new ArrayList<>()).addAll(words);
      all.addAll(words);
    }
    return new Said(r, byEntity, all);
  }

  private JsonObject search(DocSnapshot s, List<Revision> revs, int start, String query, int topK, Deadline deadline) {
    Set<String> wanted = new LinkedHashSet<>(terms(query));
    List<Said> docs = new ArrayList<>();
    Map<String, Integer> df = new HashMap<>();
    // Each revision's state laid onto the one before: rebuilt one by one, a search of a long
    // history cost each revision the whole document.
    Function<Revision, GramDocument> states = s.statesInOrder();
    // (A start past the last revision matches nothing, as before: no state is read for it.)
    GramDocument before = start == 0 || start >= revs.size() ? null : s.stateAt(start - 1);
    for (int i = start; i < revs.size(); i++) {
      deadline.check();
      GramDocument now = states.apply(revs.get(i));
      Said said = said(revs.get(i), before, now);
      before = now;
      docs.add(said);
      for (String t : new LinkedHashSet<>(said.all())) {
        if (wanted.contains(t)) {
          df.merge(t, 1, Integer::sum);
        }
      }
    }
    int n = docs.size();
    double avgLen = docs.stream().mapToInt(d -> d.all().size()).average().orElse(1);
    record Hit(Said said, double score) {}
    List<Hit> hits = new ArrayList<>();
    for (Said d : docs) {
      Map<String, Integer> tf = new HashMap<>();
      for (String t : d.all()) {
        if (wanted.contains(t)) {
          tf.merge(t, 1, Integer::sum);
        }
      }
      double score = 0;
      for (Map.Entry<String, Integer> e : tf.entrySet()) {
        int dfi = df.get(e.getKey());
        double idf = Math.log(1 + (n - dfi + 0.5) / (dfi + 0.5));
        double f = e.getValue();
        score += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * d.all().size() / Math.max(1, avgLen)));
      }
      if (score > 0) {
        hits.add(new Hit(d, score));
      }
    }
    hits.sort((a, b) -> a.score() != b.score() ? Double.compare(b.score(), a.score()) : Integer.compare(b.said().revision().rev(), a.said().revision().rev()));
    JsonArray events = new JsonArray();
    JsonObject answer = new JsonObject().put("doc", Docs.identity(s)).put("events", events);
    Page page = new Page(answer);
    for (Hit h : hits) {
      if (events.size() >= topK) {
        break;
      }
      JsonArray matched = new JsonArray();
      for (Map.Entry<String, List<String>> e : h.said().byEntity().entrySet()) {
        for (String t : e.getValue()) {
          if (wanted.contains(t)) {
            matched.add(e.getKey());
            break;
          }
        }
      }
      JsonObject ev = event(h.said().revision()).put("score", Math.round(h.score() * 1000) / 1000.0).put("matched", matched);
      if (!page.take(ev)) {
        break;
      }
      events.add(ev);
    }
    return answer;
  }
}
