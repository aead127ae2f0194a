package dev.gram.web;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.tools.spi.ChangeFeed;
import dev.gram.tools.spi.ToolRegistry;
import dev.gram.tools.support.GramContext;
import dev.gram.transport.HttpMount;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web view, mounted on the HTTP port under {@code /ui}: the routes, who may see them ({@link
 * WebAccess}), and the headers every page carries. The pages themselves are {@link BrowsePage},
 * {@link DocumentPage}, {@link HistoryPage}, {@link SearchPage}; edits go through {@link Edits},
 * live updates through {@link LiveEvents}.
 *
 * <p>Every answer says {@code Content-Security-Policy: default-src 'self'} (and no framing, no
 * inline script, images only from the page itself): the pages ask nothing of another host, and a
 * document's text, whatever an agent wrote in it, cannot run in the browser.
 */
public final class WebUi implements HttpMount {
  private static final Logger LOG = LoggerFactory.getLogger(WebUi.class);
  static final String CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
      + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";
  /** Form bodies are small: a note is the longest thing a person sends. */
  static final int MAX_FORM_BYTES = 256 * 1024;

  private final GramContext gram;
  private final WebAccess access;
  private final BrowsePage browse;
  private final DocumentPage documents;
  private final HistoryPage history;
  private final SearchPage search;
  private final Edits edits;
  private final LiveEvents live;
  private final Buffer css;
  private final Buffer js;

  /**
   * @param gram the store as readers see it (this view never writes through it: edits are tool
   *     calls)
   * @param tools the tools agents call
   * @param feed the vault's change feed
   */
  public WebUi(GramContext gram, ToolRegistry tools, ChangeFeed feed, WebAccess access) {
    this.gram = gram;
    this.access = access;
    ToolCalls calls = new ToolCalls(tools);
    this.browse = new BrowsePage(gram.reader(), calls);
    this.documents = new DocumentPage(gram);
    this.history = new HistoryPage(gram);
    this.search = new SearchPage(calls);
    this.edits = new Edits(gram, calls);
    this.live = new LiveEvents(gram.vertx(), feed);
    this.css = resource("ui.css");
    this.js = resource("ui.js");
  }

  private static Buffer resource(String name) {
    try (InputStream in = WebUi.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource dev/gram/web/" + name);
      }
      return Buffer.buffer(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String prefix() {
    return Links.ROOT;
  }

  @Override
  public void quiesce() {
    live.endAll();
  }

  @Override
  public void mount(Vertx vertx, Router router) {
    Router ui = Router.router(vertx);
    BodyHandler form = BodyHandler.create(false).setHandleFileUploads(false).setBodyLimit(MAX_FORM_BYTES);
    ui.route().handler(WebUi::headers);
    ui.get("/static/ui.css").handler(ctx -> asset(ctx, "text/css; charset=utf-8", css));
    ui.get("/static/ui.js").handler(ctx -> asset(ctx, "text/javascript; charset=utf-8", js));
    ui.get("/login").handler(this::loginPage);
    ui.post("/login").handler(form).handler(this::login);
    ui.post("/logout").handler(ctx -> {
      access.logout(ctx);
      redirect(ctx, Links.ROOT + "/login");
    });
    ui.route().handler(this::visitor);
    ui.get("/").handler(this::browse);
    ui.get("/doc/*").handler(about("/doc/", this::document));
    ui.get("/rec/*").handler(about("/rec/", this::record));
    ui.get("/history/*").handler(about("/history/", this::history));
    ui.get("/diff/*").handler(about("/diff/", this::diff));
    ui.get("/search").handler(this::search);
    ui.get("/events").handler(this::events);
    ui.post("/edit/*").handler(form).handler(this::edit);
    ui.route().handler(ctx -> fail(ctx, 404, "Not found", null, "There is no such page."));
    ui.route().failureHandler(this::failure);
    router.route(Links.ROOT + "/*").subRouter(ui);
    router.get(Links.ROOT).handler(ctx -> redirect(ctx, Links.home()));
  }

  private static void headers(RoutingContext ctx) {
    ctx.response()
        .putHeader("Content-Security-Policy", CSP)
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "same-origin")
        .putHeader("X-Frame-Options", "DENY");
    ctx.next();
  }

  private static void asset(RoutingContext ctx, String type, Buffer body) {
    ctx.response().putHeader("Content-Type", type).putHeader("Cache-Control", "no-cache").end(body);
  }

  /** Every page below needs a visitor: without a credential, the login form (or 401). */
  private void visitor(RoutingContext ctx) {
    ctx.request().pause(); // the credential may take a key fetch: the body waits for the handlers behind
    access.who(ctx).onComplete(ar -> {
      ctx.request().resume();
      Visitor v = ar.succeeded() ? ar.result() : null;
      if (v != null) {
        ctx.put(Visitor.class.getName(), v);
        ctx.next();
      } else {
        refuse(ctx);
      }
    });
  }

  private void refuse(RoutingContext ctx) {
    ctx.response().putHeader("Cache-Control", "no-store");
    boolean page = "GET".equals(ctx.request().method().name()) && ctx.request().getParam("part") == null
        && !ctx.request().path().endsWith("/events");
    if (page) {
      redirect(ctx, Links.ROOT + "/login");
    } else {
      ctx.response().setStatusCode(401).putHeader("Content-Type", "text/plain; charset=utf-8")
          .end("Log in first: " + Links.ROOT + "/login\n");
    }
  }

  private static Visitor who(RoutingContext ctx) {
    return ctx.get(Visitor.class.getName());
  }

  private void loginPage(RoutingContext ctx) {
    if (access.open()) {
      redirect(ctx, Links.home());
      return;
    }
    html(ctx, 200, Layout.page("Log in", Layout.Body.of("login"), null, false, LoginForm.html(null)));
  }

  private void login(RoutingContext ctx) {
    if (access.open()) {
      redirect(ctx, Links.home());
      return;
    }
    MultiMap f = ctx.request().formAttributes();
    access.login(ctx, f.get("name"), f.get("token")).onComplete(ar -> {
      if (ar.failed() || ar.result() == null) {
        html(ctx, 401, Layout.page("Log in", Layout.Body.of("login"), null, false,
            LoginForm.html("That name and token do not let you in.")));
        return;
      }
      redirect(ctx, Links.home());
    });
  }

  private void browse(RoutingContext ctx) {
    Map<String, String> p = params(ctx);
    BrowsePage.Query q = BrowsePage.Query.of(p);
    Visitor v = who(ctx);
    String part = p.get("part");
    if ("docs".equals(part)) {
      send(ctx, browse.docsPart(q, v));
    } else if ("activity".equals(part)) {
      send(ctx, browse.activityPart(q, v));
    } else {
      String title = q.folder().isEmpty() ? "Vault" : q.folder();
      send(ctx, browse.render(q, v).map(main -> Layout.page(title,
          new Layout.Body("vault", null, q.folder()), v, access.open(), main)));
    }
  }

  /** A request about one document: its path, who asks, and the query. */
  private record DocRequest(String path, Visitor visitor, Map<String, String> params) {}

  /** Answers a page about one document, once its path is one the visitor may read. */
  private static io.vertx.core.Handler<RoutingContext> about(String page,
      java.util.function.BiConsumer<RoutingContext, DocRequest> handler) {
    return ctx -> {
      String path = path(ctx, page);
      Visitor v = who(ctx);
      if (path == null || !v.mayRead(path)) {
        // A document the visitor may not read is the same as one that does not exist.
        fail(ctx, 404, "Not found", "E_PATH", "There is no such document.");
        return;
      }
      handler.accept(ctx, new DocRequest(path, v, params(ctx)));
    };
  }

  private void document(RoutingContext ctx, DocRequest d) {
    Future<DocumentPage.Rendered> r = documents.render(d.path(), d.params(), d.visitor());
    if ("doc".equals(d.params().get("part"))) {
      send(ctx, r.map(DocumentPage.Rendered::html));
    } else {
      send(ctx, r.map(x -> Layout.page(x.title(),
          new Layout.Body("doc", x.current() ? x.path() : null, null), d.visitor(), access.open(), x.html())));
    }
  }

  private void record(RoutingContext ctx, DocRequest d) {
    String id = d.params().getOrDefault("id", "");
    boolean part = "rec".equals(d.params().get("part"));
    Future<String> main = documents.record(d.path(), id, d.params(), d.visitor(), part);
    send(ctx, part ? main : main.map(m -> Layout.page(id, Layout.Body.of("record"), d.visitor(), access.open(), m)));
  }

  private void history(RoutingContext ctx, DocRequest d) {
    boolean part = "timeline".equals(d.params().get("part"));
    Future<String> main = history.timeline(d.path(), intParam(d.params(), "page", 1), part);
    send(ctx, part ? main : main.map(m -> Layout.page("History of " + d.path(),
        new Layout.Body("history", d.path(), null), d.visitor(), access.open(), m)));
  }

  private void diff(RoutingContext ctx, DocRequest d) {
    send(ctx, history.diff(d.path(), intParam(d.params(), "from", 0), intParam(d.params(), "to", 0))
        .map(m -> Layout.page("Changes in " + d.path(), Layout.Body.of("diff"), d.visitor(), access.open(), m)));
  }

  private void search(RoutingContext ctx) {
    Visitor v = who(ctx);
    send(ctx, search.render(params(ctx), v)
        .map(m -> Layout.page("Search", Layout.Body.of("search"), v, access.open(), m)));
  }

  private void events(RoutingContext ctx) {
    Map<String, String> p = params(ctx);
    String path = p.get("path");
    String folder = p.getOrDefault("folder", "");
    live.stream(ctx.response(), path, folder, who(ctx));
  }

  private void edit(RoutingContext ctx) {
    String path = path(ctx, "/edit/");
    Visitor v = who(ctx);
    Map<String, String> form = new LinkedHashMap<>();
    ctx.request().formAttributes().forEach(e -> form.putIfAbsent(e.getKey(), e.getValue()));
    edits.submit(path, form, v).onComplete(ar -> {
      if (ar.failed()) {
        ctx.fail(ar.cause());
        return;
      }
      Edits.Outcome o = ar.result();
      if (o.location() != null) {
        redirect(ctx, o.location());
      } else {
        html(ctx, o.status(), Layout.page("Your change was not saved", Layout.Body.of("conflict"), v,
            access.open(), o.html()));
      }
    });
  }

  /** The document path after {@code /ui<page>}, each segment decoded. */
  private static String path(RoutingContext ctx, String page) {
    String raw = ctx.request().path();
    int at = raw.indexOf(page);
    if (at < 0) {
      return null;
    }
    StringBuilder out = new StringBuilder();
    for (String seg : raw.substring(at + page.length()).split("/", -1)) {
      out.append(out.length() == 0 ? "" : "/").append(URLDecoder.decode(seg.replace("+", "%2B"), StandardCharsets.UTF_8));
    }
    return out.toString();
  }

  private static Map<String, String> params(RoutingContext ctx) {
    Map<String, String> out = new LinkedHashMap<>();
    ctx.queryParams().forEach(e -> out.putIfAbsent(e.getKey(), e.getValue()));
    return out;
  }

  private static int intParam(Map<String, String> p, String key, int dflt) {
    try {
      return Integer.parseInt(p.getOrDefault(key, String.valueOf(dflt)).strip());
    } catch (NumberFormatException e) {
      return dflt;
    }
  }

  private void send(RoutingContext ctx, Future<String> body) {
    body.onComplete(ar -> {
      if (ar.succeeded()) {
        html(ctx, 200, ar.result());
      } else {
        ctx.fail(ar.cause());
      }
    });
  }

  private static void html(RoutingContext ctx, int status, String body) {
    if (ctx.response().ended()) {
      return;
    }
    ctx.response().setStatusCode(status)
        .putHeader("Content-Type", "text/html; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        .end(body);
  }

  private static void redirect(RoutingContext ctx, String location) {
    ctx.response().setStatusCode(303).putHeader("Location", location).end();
  }

  private static void fail(RoutingContext ctx, int status, String heading, String code, String message) {
    Visitor v = who(ctx);
    html(ctx, status, Layout.page(heading, Layout.Body.of("error"), v, true, Layout.error(heading, code, message)));
  }

  /** A tool's error as a page with its code and message; anything else as a plain 500. */
  private void failure(RoutingContext ctx) {
    Throwable e = ctx.failure();
    if (e instanceof GramException g) {
      int status = switch (g.code()) {
        case E_READ_ONLY -> 403;
        case E_PATH -> 404;
        case E_ARGUMENT -> g.getMessage().startsWith("Document not found") ? 404 : 400;
        case E_TIME_NOT_RECORDED -> 404;
        case STALE_REVISION, STALE_READ, E_REQUEST_REUSE -> 409;
        case E_TIMEOUT -> 503;
        default -> 500;
      };
      String heading = status == 404 ? "Not found" : status == 403 ? "Not allowed" : "That did not work";
      fail(ctx, status, heading, g.code().name(), g.getMessage());
      return;
    }
    if (ctx.statusCode() == 413) {
      fail(ctx, 413, "Too large", null, "That form is larger than this server takes.");
      return;
    }
    if (e != null) {
      LOG.warn("web view: {} {} failed: {}", ctx.request().method(), ctx.request().path(), e.toString());
    }
    int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
    fail(ctx, status, "Something went wrong", ErrorCode.E_INTERNAL.name(),
        "The server could not answer this page. Its log says why.");
  }
}
