package dev.gram.testing;

import dev.gram.format.GramDocument;
import dev.gram.format.GramFile;
import dev.gram.format.GramParser;
import dev.gram.format.GramWriter;
import dev.gram.store.CommitReceipt;
import dev.gram.store.DocSnapshot;
import dev.gram.store.Vault;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Fills a vault with realistic documents, deterministically from a seed, by writing them through
 * the real store: every document has a real history (revision 0 by create, then patches by
 * several agents, with and without {@code effective_at}), so history, time-travel and change
 * tools have something true to read. Reusable by the recall tests and the benchmarks: the same
 * {@link Spec} gives the same documents (ids, titles, fields, links, bodies and the order of
 * revisions; recorded times are the store's clock).
 *
 * <p>What a generated vault holds, per document {@code <folder>/proj-<p>/doc-<d>.gram}:
 *
 * <ul>
 *   <li>records of every profile type, weighted towards tasks, events, decisions, evidence and
 *       metrics, with ids {@code <code>-<n>} ({@code tsk-3}, {@code evt-7}); titles from a small
 *       vocabulary so keyword searches find several;
 *   <li>statuses {@code x} (open, active, blocked, completed, proposed, accepted, superseded,
 *       mitigated…) and priorities {@code p}; one or two {@code tag}s; some {@code owner}s;
 *   <li>dates in every form the date rules know: days ({@code 2026-03-14}), months ({@code
 *       2026-03}), instants ({@code 2026-03-14T09:30:00Z}) — {@code due} on tasks, {@code at} on
 *       events (and some decisions and risks), {@code observed}/{@code value}/{@code unit} on
 *       metrics;
 *   <li>links inside the document (evidence supports decisions, events implement decisions, tasks
 *       depend on tasks, decisions replace decisions, risks block tasks) including a
 *       {@code depends} cycle of three tasks; a {@code hub} record per document whose {@code
 *       depends} links chain the documents of a project into a cycle ({@link Result#hubCycle});
 *       {@code related} links into the next document; REL edges (relation records);
 *   <li>a body with headings (Plan, Decisions, Timeline, Evidence, Metrics), a mention, placed
 *       records, a task collection and an image.
 * </ul>
 *
 * <p>Knobs ({@link Spec}): {@code seed}; {@code folder} (where projects go); {@code projects};
 * {@code documentsPerProject}; {@code recordsPerDocument}; {@code revisionsPerDocument} (1 =
 * create only; each later revision adds records, changes a status, and from the third on removes
 * a scratch record the second added); {@code placedPerDocument} (records placed in the body; the
 * rest are unplaced, which keeps bodies small in large vaults); {@code crossLinkShare} and {@code
 * relationShare} (fractions of records with a cross-document link / a REL edge); {@code cycles};
 * {@code importedDocuments} (files with no history, read as actor {@code import}); {@code
 * externalEdits} (documents edited behind the store, read as actor {@code external}); {@code
 * start} and {@code spanDays} (the dates written). Ten records: {@code new Spec(1).projects(1)
 * .documentsPerProject(1).recordsPerDocument(10)}; 100,000: {@code new Spec(1).projects(10)
 * .documentsPerProject(10).recordsPerDocument(1000).placedPerDocument(40)}.
 */
public final class VaultGenerator {
  private VaultGenerator() {}

  /** The knobs; every setter returns this spec. */
  public static final class Spec {
    long seed;
    String folder = "";
    int projects = 2;
    int documentsPerProject = 3;
    int recordsPerDocument = 16;
    int revisionsPerDocument = 3;
    int placedPerDocument = 30;
    double crossLinkShare = 0.15;
    double relationShare = 0.1;
    boolean cycles = true;
    int importedDocuments = 0;
    int externalEdits = 0;
    LocalDate start = LocalDate.of(2026, 1, 1);
    int spanDays = 365;

    public Spec(long seed) {
      this.seed = seed;
    }

    public Spec folder(String v) {
      folder = v.endsWith("/") || v.isEmpty() ? v : v + "/";
      return this;
    }

    public Spec projects(int v) {
      projects = v;
      return this;
    }

    public Spec documentsPerProject(int v) {
      documentsPerProject = v;
      return this;
    }

    public Spec recordsPerDocument(int v) {
      recordsPerDocument = v;
      return this;
    }

    public Spec revisionsPerDocument(int v) {
      revisionsPerDocument = Math.max(1, v);
      return this;
    }

    public Spec placedPerDocument(int v) {
      placedPerDocument = v;
      return this;
    }

    public Spec crossLinkShare(double v) {
      crossLinkShare = v;
      return this;
    }

    public Spec relationShare(double v) {
      relationShare = v;
      return this;
    }

    public Spec cycles(boolean v) {
      cycles = v;
      return this;
    }

    public Spec importedDocuments(int v) {
      importedDocuments = v;
      return this;
    }

    public Spec externalEdits(int v) {
      externalEdits = v;
      return this;
    }

    public Spec start(LocalDate v) {
      start = v;
      return this;
    }

    public Spec spanDays(int v) {
      spanDays = v;
      return this;
    }
  }

  /** One generated document. */
  public record Doc(String path, String documentId, String title, int project, List<String> recordIds) {}

  /** What was generated. */
  public record Result(Spec spec, List<Doc> documents, List<String> importedPaths) {

    public int records() {
      return documents.stream().mapToInt(d -> d.recordIds().size()).sum();
    }

    public Doc document(int project, int index) {
      return documents.get(project * spec.documentsPerProject + index);
    }

    /** The hubs of a project in cycle order as {@code document-id/hub}. */
    public List<String> hubCycle(int project) {
      List<String> out = new ArrayList<>();
      for (int d = 0; d < spec.documentsPerProject; d++) {
        out.add(document(project, d).documentId() + "/hub");
      }
      return out;
    }

    public String projectFolder(int project) {
      return spec.folder + "proj-" + project;
    }
  }

  private static final String[] TYPES = {
    "task", "task", "task", "task", "event", "event", "event", "decision", "decision", "evidence",
    "evidence", "metric", "metric", "risk", "blocker", "goal", "requirement", "assumption",
    "knowledge", "context", "person", "artifact", "asset", "source", "run", "history", "system",
    "service", "component", "project", "agent"
  };
  private static final String[] WORDS = {
    "lunar", "migration", "billing", "search", "index", "latency", "onboarding", "export", "backup",
    "release", "audit", "quota", "cache", "schema", "rollout", "pricing", "storage", "sync"
  };
  private static final String[] NOUNS = {
    "plan", "review", "fix", "study", "check", "launch", "design", "report", "test", "cleanup"
  };
  private static final String[] TAGS = {"infra", "ux", "data", "security", "ops", "growth"};
  private static final String[] UNITS = {"ms", "%", "req/s", "GB", "users"};

  /** Generates the vault described by {@code spec}; returns once every write is committed. */
  public static Result generate(Vault vault, Spec spec) {
    StoreWrites store = new StoreWrites(vault);
    Random rnd = new Random(spec.seed);
    List<Plan> plans = new ArrayList<>();
    for (int p = 0; p < spec.projects; p++) {
      for (int d = 0; d < spec.documentsPerProject; d++) {
        plans.add(new Plan(spec, p, d, hex(rnd, 16)));
      }
    }
    for (Plan plan : plans) {
      plan.records(rnd, plans);
    }
    // Revision 0 of every document, then each later revision of every document, documents in
    // parallel: each document has its own write actor.
    List<Future<CommitReceipt>> creates = new ArrayList<>();
    for (Plan plan : plans) {
      creates.add(store.createAsync(plan.path, plan.title, plan.createContent(), plan.agent(0), plan.effective(0), plan.documentId));
    }
    StoreWrites.await(Future.all(creates));
    for (int rev = 1; rev < spec.revisionsPerDocument; rev++) {
      List<Future<CommitReceipt>> patches = new ArrayList<>();
      for (Plan plan : plans) {
        DocSnapshot s = store.read(plan.path);
        JsonArray ops = plan.revisionOps(rev, rnd);
        patches.add(vault.submit(patchCommand(vault, plan.path, s, ops, plan.agent(rev), plan.effective(rev), plan.documentId + "-r" + rev)));
      }
      StoreWrites.await(Future.all(patches));
    }
    for (int i = 0; i < spec.externalEdits && i < plans.size(); i++) {
      Plan plan = plans.get(i);
      GramFile file = GramParser.parseOrThrow(store.fileText(plan.path));
      GramDocument edited =
          file.state().withOwner(file.state().owner().withField("d", List.of("Edited by another program")));
      store.writeFile(plan.path, new GramFile(edited, file.history(), file.headRev(), file.headChain()).write());
    }
    List<String> imported = new ArrayList<>();
    for (int i = 0; i < spec.importedDocuments; i++) {
      String path = spec.folder + "imports/import-" + i + ".gram";
      GramDocument doc = importedDocument(rnd, i, spec);
      store.writeFile(path, GramWriter.write(doc));
      imported.add(path);
    }
    List<Doc> docs = new ArrayList<>();
    for (Plan plan : plans) {
      docs.add(new Doc(plan.path, plan.documentId, plan.title, plan.project, List.copyOf(plan.finalIds())));
    }
    return new Result(spec, docs, imported);
  }

  private static dev.gram.store.WriteCommand.Patch patchCommand(
      Vault vault, String path, DocSnapshot s, JsonArray ops, String by, String eff, String requestId) {
    var vp = vault.paths().writableDocument(path);
    String digest = dev.gram.store.RequestDigest.of(vp.path(), s.rev(), s.shortHash(), ops, eff);
    return new dev.gram.store.WriteCommand.Patch(vp, s.rev(), s.shortHash(), requestId, digest, ops, by, eff);
  }

  private static GramDocument importedDocument(Random rnd, int i, Spec spec) {
    JsonArray records = new JsonArray();
    for (int n = 1; n <= 3; n++) {
      records.add(StoreWrites.record("knowledge", "knw-" + n, word(rnd) + " note " + n, "tag", TAGS[rnd.nextInt(TAGS.length)]));
    }
    return dev.gram.edit.Creation.build(
            "d_import" + i + hex(rnd, 8), "Imported notes " + i,
            new JsonObject().put("text", "# Imported notes " + i + "\n\nWritten by another program.\n\n[[knw-1]]").put("records", records),
            id -> false)
        .state();
  }

  private static String hex(Random rnd, int bytes) {
    byte[] b = new byte[bytes];
    rnd.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  private static String word(Random rnd) {
    return WORDS[rnd.nextInt(WORDS.length)];
  }

  /** A date in one of the forms agents write: a day, an instant, sometimes a month. */
  private static String date(Random rnd, Spec spec) {
    LocalDate d = spec.start.plusDays(rnd.nextInt(Math.max(1, spec.spanDays)));
    int form = rnd.nextInt(10);
    if (form < 5) {
      return d.toString();
    }
    if (form < 9) {
      return d + "T" + String.format(Locale.ROOT, "%02d:%02d:00Z", rnd.nextInt(24), rnd.nextInt(60));
    }
    return d.toString().substring(0, 7);
  }

  /** One document's plan: its records in order and what each revision does. */
  private static final class Plan {
    final Spec spec;
    final int project;
    final int index;
    final String path;
    final String documentId;
    final String title;
    final List<JsonObject> records = new ArrayList<>();
    final List<String> placed = new ArrayList<>();
    final List<String> sectionOf = new ArrayList<>();
    int createCount;
    final List<String> removed = new ArrayList<>();

    Plan(Spec spec, int project, int index, String hex) {
      this.spec = spec;
      this.project = project;
      this.index = index;
      this.path = spec.folder + "proj-" + project + "/doc-" + index + ".gram";
      this.documentId = "d_" + hex;
      this.title = "Project " + project + " document " + index;
    }

    String agent(int rev) {
      return List.of("agent-a", "agent-b", "agent-c").get((index + rev) % 3);
    }

    /** No effective time on every third revision; the others a week apart from the start. */
    String effective(int rev) {
      if (rev % 3 == 2) {
        return null;
      }
      return spec.start.plusDays(7L * rev + project).toString() + "T00:00:00Z";
    }

    void records(Random rnd, List<Plan> all) {
      Plan nextDoc = all.stream().filter(p -> p.project == project && p.index == (index + 1) % spec.documentsPerProject).findFirst().orElse(this);
      String hubTarget = nextDoc.documentId + "/hub";
      JsonObject hub = StoreWrites.record("context", "hub", "Hub of " + title, "tag", "hub");
      if (spec.cycles && spec.documentsPerProject > 1) {
        hub.put("links", new JsonArray().add(new JsonArray().add("depends").add(hubTarget)));
      }
      records.add(hub);
      sectionOf.add(null);
      List<String> tasks = new ArrayList<>();
      List<String> decisions = new ArrayList<>();
      int n = 0;
      while (records.size() < spec.recordsPerDocument) {
        n++;
        String type = TYPES[rnd.nextInt(TYPES.length)];
        String code = dev.gram.format.EntityType.ofRecordWord(type).code().toLowerCase(Locale.ROOT);
        String id = code + "-" + n;
        JsonObject r = StoreWrites.record(type, id, word(rnd) + " " + NOUNS[rnd.nextInt(NOUNS.length)] + " " + n);
        JsonObject f = r.getJsonObject("fields");
        JsonArray links = new JsonArray();
        if (rnd.nextInt(3) == 0) {
          f.put("d", new JsonArray().add("About " + word(rnd) + " and " + word(rnd) + "."));
        }
        String tag = TAGS[rnd.nextInt(TAGS.length)];
        f.put("tag", new JsonArray().add(tag));
        String second = TAGS[rnd.nextInt(TAGS.length)];
        if (rnd.nextInt(4) == 0 && !second.equals(tag)) {
          f.getJsonArray("tag").add(second);
        }
        if (rnd.nextInt(5) == 0) {
          f.put("owner", new JsonArray().add(List.of("ana", "bo", "cy").get(rnd.nextInt(3))));
        }
        String section = null;
        switch (type) {
          case "task" -> {
            f.put("x", new JsonArray().add(pick(rnd, "open", "open", "active", "blocked", "completed", "proposed")));
            f.put("p", new JsonArray().add(pick(rnd, "high", "medium", "low")));
            if (rnd.nextInt(5) != 0) {
              f.put("due", new JsonArray().add(date(rnd, spec)));
            }
            if (!tasks.isEmpty() && rnd.nextInt(3) == 0) {
              links.add(new JsonArray().add("depends").add(tasks.get(rnd.nextInt(tasks.size()))));
            }
            tasks.add(id);
            section = "Plan";
          }
          case "event" -> {
            f.put("at", new JsonArray().add(date(rnd, spec)));
            if (!decisions.isEmpty() && rnd.nextInt(2) == 0) {
              links.add(new JsonArray().add("implements").add(decisions.get(rnd.nextInt(decisions.size()))));
            }
            section = "Timeline";
          }
          case "decision" -> {
            f.put("x", new JsonArray().add(pick(rnd, "accepted", "accepted", "proposed", "superseded")));
            if (rnd.nextInt(3) == 0) {
              f.put("at", new JsonArray().add(date(rnd, spec)));
            }
            if (!decisions.isEmpty() && rnd.nextInt(3) == 0) {
              links.add(new JsonArray().add("replaces").add(decisions.get(decisions.size() - 1)));
            }
            decisions.add(id);
            section = "Decisions";
          }
          case "evidence" -> {
            if (!decisions.isEmpty()) {
              links.add(new JsonArray().add("supports").add(decisions.get(rnd.nextInt(decisions.size()))));
            }
            section = "Evidence";
          }
          case "metric" -> {
            f.put("value", new JsonArray().add(String.valueOf(rnd.nextInt(1000))));
            f.put("unit", new JsonArray().add(UNITS[rnd.nextInt(UNITS.length)]));
            f.put("observed", new JsonArray().add(date(rnd, spec)));
            section = "Metrics";
          }
          case "risk", "blocker" -> {
            f.put("x", new JsonArray().add(pick(rnd, "open", "open", "mitigated", "resolved")));
            f.put("p", new JsonArray().add(pick(rnd, "high", "medium", "low")));
            if (!tasks.isEmpty()) {
              links.add(new JsonArray().add("blocks").add(tasks.get(rnd.nextInt(tasks.size()))));
            }
            section = "Plan";
          }
          case "goal", "requirement", "assumption", "run" -> {
            f.put("x", new JsonArray().add(pick(rnd, "open", "active", "completed", "proposed")));
            section = "Plan";
          }
          case "asset" -> f.put("ref", new JsonArray().add("assets/" + word(rnd) + "-" + n + ".png"));
          case "source" -> f.put("ref", new JsonArray().add("https://example.org/" + word(rnd) + "/" + n));
          default -> {
            // other types carry the common fields only
          }
        }
        if (rnd.nextDouble() < spec.crossLinkShare && nextDoc != this) {
          links.add(new JsonArray().add("related").add(nextDoc.documentId + "/hub"));
        }
        if (!links.isEmpty()) {
          r.put("links", links);
        }
        records.add(r);
        sectionOf.add(section);
      }
      if (spec.cycles && tasks.size() >= 3) {
        // A depends cycle among the first three tasks.
        for (int i = 0; i < 3; i++) {
          JsonObject t = byId(tasks.get(i));
          JsonArray links = t.getJsonArray("links", new JsonArray());
          JsonArray l = new JsonArray().add("depends").add(tasks.get((i + 1) % 3));
          if (!links.contains(l)) {
            links.add(l);
          }
          t.put("links", links);
        }
      }
      int rels = (int) Math.round(spec.relationShare * records.size());
      for (int i = 0; i < rels; i++) {
        JsonObject a = records.get(1 + rnd.nextInt(records.size() - 1));
        JsonObject b = records.get(1 + rnd.nextInt(records.size() - 1));
        String to = rnd.nextInt(4) == 0 && nextDoc != this ? nextDoc.documentId + "/hub" : b.getString("id");
        JsonObject rel =
            new JsonObject()
                .put("type", "relation")
                .put("id", "rel-" + (i + 1))
                .put("fields", new JsonObject()
                    .put("from", new JsonArray().add(a.getString("id")))
                    .put("rel", new JsonArray().add(pick(rnd, "related", "derives", "enables", "part-of")))
                    .put("to", new JsonArray().add(to)));
        records.add(rel);
        sectionOf.add(null);
      }
      createCount = spec.revisionsPerDocument == 1 ? records.size() : Math.max(1, (int) Math.ceil(records.size() * 0.6));
      // REL edges must follow their ends; keep them in revision 0 when their ends are there.
      for (int i = 0; i < records.size() && placed.size() < spec.placedPerDocument; i++) {
        if (sectionOf.get(i) != null) {
          placed.add(records.get(i).getString("id"));
        }
      }
    }

    private JsonObject byId(String id) {
      for (JsonObject r : records) {
        if (r.getString("id").equals(id)) {
          return r;
        }
      }
      throw new IllegalStateException(id);
    }

    private static String pick(Random rnd, String... options) {
      return options[rnd.nextInt(options.length)];
    }

    /** Records of revision 0: the first share, plus every REL edge whose ends are among them. */
    private boolean inCreate(int i) {
      JsonObject r = records.get(i);
      if (!"relation".equals(r.getString("type"))) {
        return i < createCount;
      }
      return endIn(r, "from") && endIn(r, "to");
    }

    private boolean endIn(JsonObject rel, String end) {
      String v = rel.getJsonObject("fields").getJsonArray(end).getString(0);
      if (v.contains("/")) {
        return true;
      }
      for (int i = 0; i < createCount && i < records.size(); i++) {
        if (records.get(i).getString("id").equals(v)) {
          return true;
        }
      }
      return false;
    }

    JsonObject createContent() {
      JsonArray recs = new JsonArray();
      for (int i = 0; i < records.size(); i++) {
        if (inCreate(i)) {
          recs.add(records.get(i).copy());
        }
      }
      StringBuilder body = new StringBuilder("# " + title + "\n\n");
      String firstTask = firstOf("task");
      body.append("This document tracks the ").append(WORDS[index % WORDS.length]).append(" work of project ").append(project);
      if (firstTask != null) {
        body.append("; it starts with [the first task](@").append(firstTask).append(")");
      }
      body.append(".\n\n[[hub]]");
      for (String section : List.of("Plan", "Decisions", "Timeline", "Evidence", "Metrics")) {
        body.append("\n\n## ").append(section);
        if (section.equals("Plan")) {
          body.append("\n\n[[*]]{type=task view=list}");
        }
        if (section.equals("Metrics")) {
          body.append("\n\n![throughput chart](assets/chart-").append(index).append(".png)");
        }
        for (int i = 0; i < records.size(); i++) {
          String id = records.get(i).getString("id");
          if (inCreate(i) && section.equals(sectionOf.get(i)) && placed.contains(id)) {
            body.append("\n\n[[").append(id).append("]]");
          }
        }
      }
      return new JsonObject().put("text", body.toString()).put("records", recs);
    }

    private String firstOf(String type) {
      for (int i = 0; i < createCount && i < records.size(); i++) {
        if (records.get(i).getString("type").equals(type)) {
          return records.get(i).getString("id");
        }
      }
      return null;
    }

    JsonArray revisionOps(int rev, Random rnd) {
      JsonArray ops = new JsonArray();
      List<Integer> later = new ArrayList<>();
      for (int i = 0; i < records.size(); i++) {
        if (!inCreate(i)) {
          later.add(i);
        }
      }
      int chunks = spec.revisionsPerDocument - 1;
      int per = (int) Math.ceil(later.size() / (double) chunks);
      for (int k = (rev - 1) * per; k < Math.min(later.size(), rev * per); k++) {
        int i = later.get(k);
        JsonObject op = new JsonObject().put("op", "add").put("record", records.get(i).copy());
        String id = records.get(i).getString("id");
        if (placed.contains(id)) {
          op.put("place", new JsonObject().put("section", sectionOf.get(i)));
        }
        ops.add(op);
      }
      // A status change on a task that exists by now.
      for (int i = 0; i < records.size(); i++) {
        JsonObject r = records.get(i);
        if (r.getString("type").equals("task") && inCreate(i)) {
          String x = pick(rnd, "active", "blocked", "completed");
          ops.add(StoreWrites.set(r.getString("id"), "x", x));
          r.getJsonObject("fields").put("x", new JsonArray().add(x));
          break;
        }
      }
      if (rev == 1) {
        ops.add(new JsonObject().put("op", "add").put("record",
            StoreWrites.record("knowledge", "scratch", "Scratch note of " + title)));
      } else if (rev == 2) {
        ops.add(StoreWrites.del("scratch"));
        removed.add("scratch");
      }
      if (ops.isEmpty()) {
        ops.add(StoreWrites.set("doc", "d", "Revision " + rev + " of " + title));
      }
      return ops;
    }

    List<String> finalIds() {
      List<String> out = new ArrayList<>();
      for (JsonObject r : records) {
        out.add(r.getString("id"));
      }
      if (spec.revisionsPerDocument == 2) {
        out.add("scratch");
      }
      return out;
    }
  }
}
