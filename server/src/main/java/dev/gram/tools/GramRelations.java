package dev.gram.tools;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.GramDocument;
import dev.gram.format.Link;
import dev.gram.store.DocSnapshot;
import dev.gram.store.VaultPath;
import dev.gram.tools.support.Budget;
import dev.gram.tools.support.Cursors;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.Docs;
import dev.gram.tools.support.EntityJson;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Inputs;
import dev.gram.tools.support.JsonText;
import dev.gram.tools.support.Limits;
import dev.gram.tools.support.Page;
import dev.gram.tools.support.Scope;
import dev.gram.tools.support.Snapshots;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code gram_relations}: the edges around one entity — its explicit links ({@code -> predicate
 * target}) and REL edges (relation records {@code from rel to}) — as {@code {docs, edges: [[from,
 * predicate, to]]}}.
 *
 * <p>The graph is built from the documents in {@code paths} (document paths or folders), by
 * default the documents of the entity's project folder (the whole vault for a document at the
 * root), the entity's own document always included; at most {@link
 * Limits#RELATIONS_MAX_DOCUMENTS} documents ({@code E_TOO_MANY_DOCUMENTS}). From the entity it
 * walks breadth first up to {@code depth} (1–3, default 1) along {@code direction} ({@code out}
 * by default, {@code in}, {@code both}), keeping only {@code predicates} when given; each node is
 * expanded once, so cycles end. Edges come in the order they are reached. An end in the entity's
 * own document is its bare id, an end in another document is {@code document-id/entity-id}; an
 * edge to a document outside the scope is listed but not followed.
 *
 * <p>{@code limit} (default {@link Limits#RELATIONS_DEFAULT}, at most {@link
 * Limits#RELATIONS_MAX}) and the budget bound a page; {@code more} is the cursor, bound to the
 * request and to the state of every document read ({@code STALE_CURSOR} when any changed).
 */
public final class GramRelations extends ReadTool {
  static final String INVALID_CURSOR = "Invalid relations cursor";
  static final String OTHER_REQUEST = "The cursor belongs to another request; ask again without cursor";
  static final String STALE_CURSOR = "The relations changed since this cursor; ask again without cursor";

  public GramRelations(GramContext ctx) {
    super(ctx, "gram_relations");
  }

  @Override
  public String description() {
    return "Follow the explicit links and REL edges around one entity (from {path, entity}) as "
        + "[from, predicate, to] edges: direction out (default), in or both; depth 1 to 3; only "
        + "the predicates listed when given. Searches the documents in paths (documents or "
        + "folders), by default the documents of the entity's project; ends in other documents "
        + "read document-id/entity-id. At most " + Limits.RELATIONS_MAX_DOCUMENTS + " documents. "
        + "limit pages; pass more back as cursor.";
  }

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    JsonObject from = Inputs.object(args, "from");
    if (from == null || Inputs.string(from, "path") == null || Inputs.string(from, "entity") == null) {
      throw Inputs.bad("from must be {path, entity}");
    }
    VaultPath start = ctx.reader().paths().document(Inputs.string(from, "path"));
    String entity = Inputs.string(from, "entity");
    String direction = args.getValue("direction") == null ? "out" : Inputs.string(args, "direction");
    if (!List.of("out", "in", "both").contains(direction)) {
      throw Inputs.bad("direction is out, in or both");
    }
    int depth = GramList.orDefault(Inputs.integer(args, "depth", 1, 3), 1);
    int limit = Math.min(Limits.RELATIONS_MAX, GramList.orDefault(Inputs.integer(args, "limit", 1, Integer.MAX_VALUE), Limits.RELATIONS_DEFAULT));
    List<String> predicates = Inputs.strings(args, "predicates");
    if (predicates != null) {
      for (String p : predicates) {
        if (!Link.isPredicate(p)) {
          throw Inputs.bad("unknown predicate " + p + "; use one of " + String.join(" ", Link.PREDICATES));
        }
      }
    }
    List<String> paths = Inputs.strings(args, "paths");
    String request =
        JsonText.digest(
            new JsonObject()
                .put("from", new JsonArray().add(start.path()).add(entity))
                .put("direction", direction)
                .put("depth", depth)
                .put("predicates", predicates == null ? null : new JsonArray(predicates))
                .put("paths", paths == null ? null : new JsonArray(paths)));
    String cursorText = Inputs.string(args, "cursor");
    JsonObject cursor = cursorText == null ? null : Cursors.decode(name(), cursorText, INVALID_CURSOR);
    if (cursor != null) {
      Cursors.intField(cursor, "o", INVALID_CURSOR);
      if (!request.equals(cursor.getString("q"))) {
        throw new GramException(ErrorCode.STALE_CURSOR, OTHER_REQUEST);
      }
    }
    return Snapshots.read(ctx, start)
        .compose(
            s -> {
              Entity e = EntityJson.lookup(s.requireState(), entity);
              if (e == null) {
                throw Inputs.bad("No entity " + entity + " in " + s.path());
              }
              return scope(s, paths)
                  .compose(
                      docs ->
                          offLoop(
                              deadline,
                              () -> answer(s, e, docs, direction, depth, predicates, limit, request, cursor, deadline)));
            });
  }

  /** The documents to read: {@code paths}, or the start document's project; the start always. */
  private Future<List<DocSnapshot>> scope(DocSnapshot start, List<String> paths) {
    List<Future<List<DocSnapshot>>> parts = new ArrayList<>();
    if (paths == null) {
      VaultPath loc = start.location();
      String project = loc.project();
      String folder;
      if (project.isEmpty()) {
        folder = loc.mount() == null ? "" : loc.mount().key();
      } else {
        folder = loc.mount() == null ? project : loc.mount().key() + "/" + project;
      }
      parts.add(Scope.folder(ctx, ctx.reader().paths().folder(folder)).map(Scope::docs));
    } else {
      // Count what the request names before reading any of it.
      Set<String> named = new HashSet<>();
      named.add(start.path());
      for (String p : paths) {
        VaultPath vp = ctx.reader().paths().resolve(p);
        if (vp.document()) {
          named.add(vp.path());
        }
      }
      if (named.size() > Limits.RELATIONS_MAX_DOCUMENTS) {
        throw Limits.tooManyDocuments(name(), Limits.RELATIONS_MAX_DOCUMENTS, named.size(), "name fewer in paths");
      }
      for (String p : paths) {
        VaultPath vp = ctx.reader().paths().resolve(p);
        if (vp.document()) {
          parts.add(Snapshots.read(ctx, vp).map(List::of));
        } else {
          parts.add(Scope.folder(ctx, vp).map(Scope::docs));
        }
      }
    }
    return Future.all(parts)
        .map(
            all -> {
              Map<String, DocSnapshot> byPath = new LinkedHashMap<>();
              byPath.put(start.path(), start);
              for (int i = 0; i < parts.size(); i++) {
                for (DocSnapshot d : parts.get(i).result()) {
                  byPath.putIfAbsent(d.path(), d);
                }
              }
              if (byPath.size() > Limits.RELATIONS_MAX_DOCUMENTS) {
                throw Limits.tooManyDocuments(
                    name(), Limits.RELATIONS_MAX_DOCUMENTS, byPath.size(),
                    paths == null ? "its project is larger: name the documents or folders to search in paths" : "name fewer in paths");
              }
              return new ArrayList<>(byPath.values());
            });
  }

  /** A node: an entity of a document, by document id. */
  private record Node(String docId, String id) {
    String key() {
      return docId + "/" + id;
    }
  }

  private record Edge(Node from, String predicate, Node to) {}

  private JsonObject answer(
      DocSnapshot start, Entity entity, List<DocSnapshot> docs, String direction, int depth,
      List<String> predicates, int limit, String request, JsonObject cursor, Deadline deadline) {
    Map<String, List<Edge>> out = new HashMap<>();
    Map<String, List<Edge>> in = new HashMap<>();
    Map<String, DocSnapshot> byDocId = new HashMap<>();
    JsonArray bound = new JsonArray();
    for (DocSnapshot s : docs) {
      deadline.check();
      bound.add(new JsonArray().add(s.path()).add(s.hash()));
      GramDocument d = s.state();
      if (d == null) {
        continue;
      }
      byDocId.putIfAbsent(d.id(), s);
      for (Entity r : d.records()) {
        if (r.type() == EntityType.RELATION) {
          String rel = r.first("rel");
          Node a = node(d, r.first("from"));
          Node b = node(d, r.first("to"));
          if (rel != null && a != null && b != null) {
            index(new Edge(a, rel, b), out, in);
          }
        }
        for (Link l : r.links()) {
          index(new Edge(new Node(d.id(), r.id()), l.predicate(), node(d, l.target())), out, in);
        }
      }
    }
    String scopeDigest = JsonText.digest(bound);
    int from = 0;
    if (cursor != null) {
      if (!scopeDigest.equals(cursor.getString("d"))) {
        throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
      }
      from = cursor.getInteger("o");
    }
    GramDocument home = start.requireState();
    List<Edge> edges = walk(new Node(home.id(), entity.id()), direction, depth, predicates, out, in, deadline);
    JsonArray docsOut = new JsonArray();
    JsonArray rows = new JsonArray();
    JsonObject answer = new JsonObject().put("docs", docsOut).put("edges", rows);
    Page page = new Page(answer);
    Set<String> seen = new HashSet<>();
    int i = from;
    while (i < edges.size() && rows.size() < limit) {
      Edge e = edges.get(i);
      JsonArray row = new JsonArray().add(shown(e.from(), home)).add(e.predicate()).add(shown(e.to(), home));
      List<JsonObject> newDocs = new ArrayList<>();
      int need = 0;
      for (Node n : List.of(e.from(), e.to())) {
        DocSnapshot s = byDocId.get(n.docId());
        if (s != null && !seen.contains(s.path()) && newDocs.stream().noneMatch(o -> o.getString("path").equals(s.path()))) {
          JsonObject id = Docs.identity(s);
          newDocs.add(id);
          need += Budget.size(id) + 1;
        }
      }
      need += Budget.size(row) + 1;
      if (!page.takeBytes(need)) {
        break;
      }
      for (JsonObject id : newDocs) {
        seen.add(id.getString("path"));
        docsOut.add(id);
      }
      rows.add(row);
      i++;
    }
    if (rows.isEmpty()) {
      // No edge to list: the answer still names the document it started from, with its CAS pair.
      docsOut.add(Docs.identity(start));
    }
    if (i < edges.size()) {
      answer.put("more", Cursors.encode(name(), new JsonObject().put("q", request).put("d", scopeDigest).put("o", i)));
    }
    return answer;
  }

  private static void index(Edge e, Map<String, List<Edge>> out, Map<String, List<Edge>> in) {
    if (e.to() == null) {
      return;
    }
    out.computeIfAbsent(e.from().key(), k -> new ArrayList<>()).add(e);
    in.computeIfAbsent(e.to().key(), k -> new ArrayList<>()).add(e);
  }

  /** A link target or REL end written in document {@code d}. */
  private static Node node(GramDocument d, String target) {
    if (target == null || target.isEmpty()) {
      return null;
    }
    int slash = target.indexOf('/');
    return slash < 0 ? new Node(d.id(), target) : new Node(target.substring(0, slash), target.substring(slash + 1));
  }

  private static String shown(Node n, GramDocument home) {
    return n.docId().equals(home.id()) ? n.id() : n.key();
  }

  private static List<Edge> walk(
      Node start, String direction, int depth, List<String> predicates,
      Map<String, List<Edge>> out, Map<String, List<Edge>> in, Deadline deadline) {
    boolean followOut = !direction.equals("in");
    boolean followIn = !direction.equals("out");
    Set<Edge> found = new LinkedHashSet<>();
    Set<String> expanded = new HashSet<>();
    ArrayDeque<Node> frontier = new ArrayDeque<>();
    frontier.add(start);
    expanded.add(start.key());
    for (int level = 0; level < depth && !frontier.isEmpty(); level++) {
      ArrayDeque<Node> next = new ArrayDeque<>();
      for (Node n : frontier) {
        deadline.check();
        if (followOut) {
          for (Edge e : out.getOrDefault(n.key(), List.of())) {
            if (keep(e, predicates) && found.add(e) && expanded.add(e.to().key())) {
              next.add(e.to());
            }
          }
        }
        if (followIn) {
          for (Edge e : in.getOrDefault(n.key(), List.of())) {
            if (keep(e, predicates) && found.add(e) && expanded.add(e.from().key())) {
              next.add(e.from());
            }
          }
        }
      }
      frontier = next;
    }
    return new ArrayList<>(found);
  }

  private static boolean keep(Edge e, List<String> predicates) {
    return predicates == null || predicates.contains(e.predicate());
  }
}
