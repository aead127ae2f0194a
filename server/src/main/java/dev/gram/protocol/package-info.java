/**
 * MCP itself, independent of any transport: JSON-RPC framing, both protocol eras, the routing of
 * requests to their methods, argument validation, and the shaping of tool answers and errors.
 *
 * <h2>What it owns</h2>
 *
 * <ul>
 *   <li>{@link dev.gram.protocol.JsonRpc}: the message shapes, the error codes, and a parser that
 *       turns any bytes into exactly one {@link dev.gram.protocol.JsonRpc.Message} (malformed input
 *       becomes {@link dev.gram.protocol.JsonRpc.Invalid}, never an exception).
 *   <li>{@link dev.gram.protocol.McpDispatcher}: the one entry. A transport hands it a message and
 *       the {@link dev.gram.protocol.Channel} it arrived on and gets back a {@link
 *       dev.gram.protocol.Reply}.
 *   <li>{@link dev.gram.protocol.Channel}: the only per-connection state MCP has, a legacy
 *       handshake and the requests in flight.
 *   <li>{@link dev.gram.protocol.ProtocolVersions}, {@link dev.gram.protocol.MetaKeys}, {@link
 *       dev.gram.protocol.ServerInfo} and {@link dev.gram.protocol.ProtocolMetrics}: the versions we
 *       speak, the {@code _meta} keys, how the server names itself, and what it reports about the
 *       calls it serves. The server supplies the last two, so this package needs nothing from above.
 * </ul>
 *
 * <h2>Design: a router and small handlers</h2>
 *
 * The dispatcher only routes. For a request other than {@code initialize}, {@code RequestEra}
 * decides which era serves it (the version in its {@code _meta} first, then its channel's
 * handshake) or refuses it; then the era's method table sends it to one handler per era's
 * lifecycle or per method family:
 *
 * <ul>
 *   <li>{@code LegacyHandshake}: {@code initialize}, {@code notifications/initialized}, {@code
 *       ping};
 *   <li>{@code ModernEra}: the per-request {@code _meta} checks and {@code server/discover};
 *   <li>{@code ToolsList}: {@code tools/list};
 *   <li>{@code ToolsCall}: {@code tools/call}, with {@code CallInFlight} as the context a running
 *       tool sees (progress, cancellation) and {@code ToolResults} shaping what it gives;
 *   <li>{@code ResourcesMethods}: {@code resources/list}, {@code resources/templates/list}, {@code
 *       resources/read}; {@code PromptsMethods}: {@code prompts/list}, {@code prompts/get}; both
 *       from the {@code tools.spi} interfaces, with {@code CacheHints} for 2026-07-28 and {@code
 *       ResourceErrors} turning the contract's error codes into JSON-RPC errors;
 *   <li>{@code Subscriptions}: {@code resources/subscribe} and {@code resources/unsubscribe}
 *       (legacy) and {@code subscriptions/listen} (2026-07-28), each subscription one {@code
 *       SubscriberStream}: a bounded queue that coalesces per document, woken through a Mutiny
 *       {@code Multi} whose overflow strategy keeps only the latest wake-up, so a commit only
 *       enqueues and never waits for a client. {@link dev.gram.protocol.Outbound} lets a transport
 *       say it is congested, and the stream holds back meanwhile.
 * </ul>
 *
 * <h2>Outcomes, not statuses</h2>
 *
 * A {@link dev.gram.protocol.Reply} says what happened in the protocol's terms: a result, a
 * JSON-RPC error of some {@link dev.gram.protocol.Reply.ErrorKind} (an invalid message, an unknown
 * 2026-07-28 method, an error the method answered with, a server fault), a notification taken, or
 * a cancelled request. Only the transport knows what that means on its wire; the Streamable HTTP
 * transport alone turns it into an HTTP status. Notifications about a request (progress, a
 * subscription's acknowledgement) go to a consumer the transport supplies: stdout for stdio, the
 * request's SSE stream for HTTP, the session stream for legacy SSE.
 *
 * <h2>Two eras on one endpoint</h2>
 *
 * <ul>
 *   <li><b>Modern (2026-07-28).</b> A request whose {@code params._meta} carries {@code
 *       io.modelcontextprotocol/protocolVersion} is served on its own: {@code clientCapabilities}
 *       must be there too (else -32602), an unknown version gets -32022 with {@code
 *       data.supported}, every result has {@code resultType}, list and discovery results carry
 *       {@code ttlMs} and {@code cacheScope}, and results name the server in {@code _meta}. Methods:
 *       {@code server/discover}, {@code tools/list}, {@code tools/call}, the resources and prompts
 *       methods, {@code subscriptions/listen} (acknowledged with the part of its filter we honour,
 *       {@code resourceSubscriptions} and {@code resourcesListChanged}; held open until the client
 *       leaves or the server shuts down). {@code ping} and {@code resources/subscribe} are gone.
 *   <li><b>Legacy (2024-11-05 to 2025-11-25).</b> {@code initialize} records a {@link
 *       dev.gram.protocol.Channel.Handshake} on the channel (the stdio process, an HTTP session,
 *       an SSE connection) and answers the client's version if we speak it, else our newest legacy
 *       one. Later requests without modern {@code _meta} follow that handshake: {@code ping},
 *       {@code tools/list}, {@code tools/call}, the resources and prompts methods and {@code
 *       resources/subscribe}; results keep their legacy shape.
 * </ul>
 *
 * A request with neither a handshake nor modern {@code _meta} is invalid params (-32602), except
 * {@code ping}, which legacy clients may send before {@code initialize}.
 *
 * <h2>Tool calls</h2>
 *
 * Arguments are checked by {@link dev.gram.protocol.ArgumentValidator} against the very schema
 * {@code tools/list} publishes (vertx-json-schema, draft 2020-12), after the tool's own {@code
 * precheck} for codes that must win over {@code E_ARGUMENT}; a failure is a tool result, never a
 * protocol error. The tool then runs with a {@link dev.gram.tools.spi.CallContext} whose agent is
 * the client's name (from {@code initialize} or from {@code _meta.clientInfo}), else the
 * transport's name. Its answer becomes {@code content} (one text item of compact JSON) plus {@code
 * structuredContent} (the same object); a {@link dev.gram.base.GramException} becomes {@code
 * isError: true} with {@code {"error":{code, message, details}}}, shaped in one place ({@code
 * ToolErrors}); anything else becomes {@code E_INTERNAL} with a short message while the cause goes
 * to the log. An answer over {@link dev.gram.base.ResponseBudget#BYTES} becomes {@code
 * E_CONTEXT_BUDGET}. Protocol faults (unknown tool, malformed request) are JSON-RPC errors.
 *
 * <h2>Callers</h2>
 *
 * Every channel has a caller, a {@link dev.gram.access.Identity} the transport set. A tool call
 * runs the tool the registry gives for that caller ({@code ToolRegistry.get(name, caller)}: for a
 * restricted caller, the tool on its gate), and records the caller's proven name as the author,
 * else the client's declared one. Resources and prompts are asked {@code as(caller)};
 * subscriptions check the caller's approvals at every delivery. Calls the approvals refuse are
 * counted and logged by {@code Refusals}.
 *
 * <h2>Cancellation and shutdown</h2>
 *
 * Every call is registered on its channel under its request id. {@code notifications/cancelled}
 * (stdio, legacy sessions) or a closed channel (a modern HTTP request whose connection went away)
 * marks the call cancelled, which the tool can see, and the call is answered with nothing. The
 * dispatcher counts calls until their tools finish, cancelled or not; {@link
 * dev.gram.protocol.McpDispatcher#drain} completes when that count reaches zero (the last call to
 * finish completes it, nothing polls) or at its timeout, so shutdown can wait for writes to land.
 *
 * <h2>Threads</h2>
 *
 * The dispatcher holds no per-connection state of its own and may be called from any event loop;
 * {@link dev.gram.protocol.Channel} is safe to share. Tools are called on the caller's event loop
 * and must not block; their futures may complete on any thread.
 *
 * <h2>What it may not touch</h2>
 *
 * Tools only through {@code dev.gram.tools.spi} ({@link dev.gram.tools.spi.Tool}, {@link
 * dev.gram.tools.spi.CallContext}, {@link dev.gram.tools.spi.ToolRegistry}): no tool
 * implementation ({@code dev.gram.tools}, {@code dev.gram.tools.support}), so a call is routed and
 * validated without knowing which tool it is. Nothing of the transports or the server ({@code
 * dev.gram.transport}, {@code dev.gram.server}): no HTTP status, header or session is chosen here,
 * and what the server is called, its version and its metrics arrive as constructor parameters of
 * types this package owns. It may use {@code dev.gram.base} and {@code dev.gram.async}. {@code
 * ArchitectureTest} checks these rules.
 */
package dev.gram.protocol;
