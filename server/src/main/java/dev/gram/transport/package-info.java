/**
 * The transports: how MCP messages reach the {@link dev.gram.protocol.McpDispatcher} and how its
 * replies get back. Each is a small Vert.x verticle; none blocks an event loop.
 *
 * <h2>What it owns</h2>
 *
 * Bytes, framing and connections: reading and writing stdio, the HTTP server and its routes,
 * Streamable HTTP sessions and headers, SSE streams and their keep-alives, the guards in front of
 * every HTTP request, the metrics registry, and every HTTP status code the server sends. A
 * transport parses bytes with {@link dev.gram.protocol.JsonRpc#parse}, hands the message and its
 * {@link dev.gram.protocol.Channel} to the dispatcher, and writes back what the {@link
 * dev.gram.protocol.Reply} holds. It never interprets MCP beyond what its framing needs (which
 * version header a request carries, whether an answer should be streamed).
 *
 * <h2>stdio ({@link dev.gram.transport.StdioTransport})</h2>
 *
 * Newline-delimited JSON-RPC. Reading stdin can only block, so a daemon thread ({@code LineReader})
 * reads lines (bounded by {@code --max-body-bytes}; a longer one is skipped and answered with
 * -32600) and hands them to the verticle's event loop. Writing may block on a slow reader, so one
 * thread ({@code LineWriter}) writes every outgoing message, in order, to file descriptor 1; nothing
 * else ever writes there (the command line points {@code System.out} at stderr before serving). The stdio process is one
 * {@link dev.gram.protocol.Channel}: a legacy handshake on it lasts for the process. End of input
 * shuts the server down. A reply with nothing to send writes nothing.
 *
 * <h2>HTTP ({@link dev.gram.transport.HttpTransport})</h2>
 *
 * One Vert.x Web router: {@code /mcp} (Streamable HTTP, both eras, see {@code StreamableHttp}),
 * {@code /sse} and {@code /message} (the 2024-11-05 HTTP+SSE transport, see {@code LegacySse}),
 * {@code /healthz}, {@code /metrics}. A legacy session (created by {@code initialize}, named by
 * {@code Mcp-Session-Id}) or an SSE connection is a channel; a modern request is a channel of its
 * own, so closing its connection cancels it. Answers that have something to stream first (progress,
 * a subscription) go out as SSE; others as one JSON object.
 *
 * <h2>HTTP statuses</h2>
 *
 * The protocol says what kind of outcome a reply is; {@code HttpReplies.status} alone maps it, for
 * both HTTP transports: a result, or an error a method answered with, is 200; a message refused
 * before any method ran (malformed JSON-RPC, a version or {@code _meta} that cannot be served, a
 * handshake out of order, an id already in flight) is 400; a 2026-07-28 request for an unknown
 * method is 404; a server fault is 500; a taken notification or response is 202 and a cancelled
 * request 204, both without a body.
 * What only the transport can see it answers itself: 400 for a missing session or a header that
 * contradicts the body (-32020), 404 for an unknown session, 405 for a method the route lacks.
 * Legacy SSE accepts every well-formed POST with 202 and sends the answer on its stream.
 *
 * <h2>Guards</h2>
 *
 * {@code HttpGuard} runs first on every request: 503 while shutting down, 403 for a foreign
 * {@code Host} (DNS rebinding) or {@code Origin}. {@code HttpAuth} runs next: the {@link
 * dev.gram.access.Authenticator} the server built from its flags turns the {@code Authorization}
 * header into an {@link dev.gram.access.Identity}, or the request is refused here with 401 or 403
 * and the {@code WWW-Authenticate} challenge the refusal carries ({@code /healthz} and the
 * protected-resource metadata, {@code ResourceMetadata}, are public). The identity becomes the
 * caller of the channel the request uses; a legacy session or SSE connection used with another
 * caller's credential is "Session not found". The body handler refuses bodies over {@code
 * --max-body-bytes} with 413; connections idle for {@code --idle-timeout-seconds} are closed, and
 * SSE streams send comment keep-alives well within that. stdio authenticates nobody: its channel's
 * caller is the local one the server gives it.
 *
 * <h2>Metrics</h2>
 *
 * {@link dev.gram.transport.ServerMetrics} implements the dispatcher's {@link
 * dev.gram.protocol.ProtocolMetrics} with Micrometer, in the same Prometheus registry Vert.x
 * Micrometer fills with HTTP server metrics, scraped at {@code /metrics}.
 *
 * <h2>Shutdown</h2>
 *
 * {@link dev.gram.transport.Transport#quiesce()} stops intake (stdio ignores further lines, HTTP
 * answers 503) and ends streams that carry nothing but keep-alives; the server then drains calls in
 * flight and undeploys the verticles, which flushes stdout and closes the HTTP server.
 *
 * <h2>What it may not touch</h2>
 *
 * The protocol only through its public types ({@code McpDispatcher}, {@code Channel}, {@code
 * JsonRpc}, {@code Reply}, {@code ProtocolVersions}, {@code MetaKeys}, {@code ProtocolMetrics}); no
 * tool, store or index, and nothing of {@code dev.gram.server}, which wires the transports and owns
 * their life. It may use {@code dev.gram.base} and {@code dev.gram.async}. {@code ArchitectureTest}
 * checks these rules.
 */
package dev.gram.transport;
