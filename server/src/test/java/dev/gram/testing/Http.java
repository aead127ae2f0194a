package dev.gram.testing;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Raw HTTP for tests that must see status codes and headers, with the 2026-07-28 request headers
 * filled in from the body unless the test overrides or removes them.
 *
 * <pre>{@code
 * Http http = new Http(server.mcpUrl());
 * HttpResponse<String> r = http.modern("tools/list", new JsonObject()).send();
 * }</pre>
 */
public final class Http {
  public static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();

  private final URI endpoint;

  public Http(URI endpoint) {
    this.endpoint = endpoint;
  }

  public static HttpClient client() {
    return CLIENT;
  }

  /** A POST of a modern request: id, {@code _meta}, and matching headers already set. */
  public Post modern(String method, JsonObject params) {
    JsonObject p = params.copy();
    JsonObject meta = p.getJsonObject("_meta", new JsonObject());
    StdioClient.modernMeta("raw-http").forEach(e -> {
      if (!meta.containsKey(e.getKey())) {
        meta.put(e.getKey(), e.getValue());
      }
    });
    p.put("_meta", meta);
    Post post =
        new Post(new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", method).put("params", p))
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method);
    if (p.getValue("name") instanceof String name) {
      post.header("Mcp-Name", name);
    }
    return post;
  }

  /** A POST of any body, with only Content-Type and Accept set. */
  public Post post(JsonObject body) {
    return new Post(body);
  }

  public HttpResponse<String> get(Map<String, String> headers) {
    return send(HttpRequest.newBuilder(endpoint).GET(), headers);
  }

  public HttpResponse<String> delete(Map<String, String> headers) {
    return send(HttpRequest.newBuilder(endpoint).DELETE(), headers);
  }

  public static HttpResponse<String> send(HttpRequest.Builder b, Map<String, String> headers) {
    headers.forEach(b::header);
    try {
      return CLIENT.send(b.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A POST being put together. */
  public final class Post {
    private final JsonObject body;
    private final Map<String, String> headers = new LinkedHashMap<>();

    Post(JsonObject body) {
      this.body = body;
      headers.put("Content-Type", "application/json");
      headers.put("Accept", "application/json, text/event-stream");
    }

    public Post header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    public Post without(String name) {
      headers.remove(name);
      return this;
    }

    public JsonObject body() {
      return body;
    }

    public HttpResponse<String> send() {
      return Http.send(
          HttpRequest.newBuilder(endpoint).POST(HttpRequest.BodyPublishers.ofString(body.encode())),
          headers);
    }
  }
}
