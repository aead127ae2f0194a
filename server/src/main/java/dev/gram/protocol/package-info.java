/**
 * MCP itself, independent of any transport: JSON-RPC framing, both protocol eras, and the shaping
 * of tool answers.
 *
 * <h2>Design</h2>
 *
 * <p>{@link dev.gram.protocol.McpDispatcher} is the only class that knows MCP. A transport parses
 * bytes into a {@link dev.gram.protocol.JsonRpc.Message} (never an exception: malformed input
 * becomes {@link dev.gram.protocol.JsonRpc.Invalid}), hands it to the dispatcher together with
 * the {@link dev.gram.protocol.Channel} it arrived on, and writes back the {@link
 * dev.gram.protocol.Reply}. A reply carries an HTTP status hint, which only the Streamable HTTP
 * transport reads. Notifications about a request (progress, a subscription's acknowledgement) go to
 * a consumer the transport supplies: stdout for stdio, the request's SSE stream for HTTP, the
 * session stream for legacy SSE.
 *
 * <h2>Two eras on one endpoint</h2>
 *
 * <ul>
 *   <li><b>Modern (2026-07-28).</b> A request whose {@code params._meta} carries {@code
 *       io.modelcontextprotocol/protocolVersion} is served on its own: {@code clientCapabilities}
 *       must be there too (else -32602), an unknown version gets -32022 with {@code
 *       data.supported}, every result has {@code resultType}, list and discovery results carry
 *       {@code ttlMs} and {@code cacheScope}, and results name the server in {@code _meta}. Methods:
 *       {@code server/discover}, {@code tools/list}, {@code tools/call}, {@code
 *       subscriptions/listen} (acknowledged with an empty filter, since nothing we list changes).
 *   <li><b>Legacy (2024-11-05 to 2025-11-25).</b> {@code initialize} records a {@link
 *       dev.gram.protocol.Channel.Handshake} on the channel (the stdio process, an HTTP session,
 *       an SSE connection) and answers the client's version if we speak it, else our newest legacy
 *       one. Later requests without modern {@code _meta} follow that handshake: {@code ping},
 *       {@code tools/list}, {@code tools/call}; results keep their legacy shape.
 * </ul>
 *
 * A request with neither a handshake nor modern {@code _meta} is invalid params (-32602), except
 * {@code ping}, which legacy clients may send before {@code initialize}.
 *
 * <h2>Tool calls</h2>
 *
 * Arguments are checked by {@link dev.gram.protocol.ArgumentValidator} against the very schema
 * {@code tools/list} publishes (vertx-json-schema, draft 2020-12); a failure is an {@code
 * E_ARGUMENT} tool result, never a protocol error. The tool then runs with a {@link
 * dev.gram.tools.spi.CallContext} whose agent is the client's name (from {@code initialize} or from
 * {@code _meta.clientInfo}), else the transport's name. Its answer becomes {@code content} (one
 * text item of compact JSON) plus {@code structuredContent} (the same object); a {@link
 * dev.gram.base.GramException} becomes {@code isError: true} with {@code {"error":{code,
 * message, details}}}; anything else becomes {@code E_INTERNAL} with a short message while the
 * cause goes to the log. An answer over {@link dev.gram.tools.ResponseBudget#BYTES} becomes {@code
 * E_CONTEXT_BUDGET}. Protocol faults (unknown tool, malformed request) are JSON-RPC errors.
 *
 * <h2>Cancellation and shutdown</h2>
 *
 * Every call is registered on its channel under its request id. {@code notifications/cancelled}
 * (stdio, legacy sessions) or a closed channel (a modern HTTP request whose connection went away)
 * marks the call cancelled, which the tool can see, and the call is answered with nothing. The
 * dispatcher counts calls until their tools finish, cancelled or not, so {@link
 * dev.gram.protocol.McpDispatcher#drain} lets shutdown wait for writes to land.
 *
 * <h2>Threads</h2>
 *
 * The dispatcher holds no per-connection state of its own and may be called from any event loop;
 * {@link dev.gram.protocol.Channel} is safe to share. Tools are called on the caller's event loop
 * and must not block; their futures may complete on any thread.
 */
package dev.gram.protocol;

import dev.gram.base.GramException;
import dev.gram.base.ResponseBudget;
import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
