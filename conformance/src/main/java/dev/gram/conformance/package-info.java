/**
 * The black-box conformance suite's runner: a small MCP client that runs the cases of {@code
 * conformance/cases} against any server that implements the gram tool contract, over stdio,
 * Streamable HTTP or legacy HTTP+SSE, in the legacy (initialize) era or the 2026-07-28 era.
 *
 * <h2>Design</h2>
 *
 * <ul>
 *   <li>{@link dev.gram.conformance.Runner} reads the options, loads the case files ({@code
 *       Cases}), opens one connection for the whole run, runs each case's steps in order and
 *       prints one line per case and the closing {@code N passed, N failed}.
 *   <li>{@code McpClient} knows the eras: {@code initialize} + {@code notifications/initialized},
 *       or per-request {@code _meta} (protocol version, client capabilities, client info) after a
 *       {@code server/discover} check. {@code Wire}s know the transports: {@code StdioWire}
 *       (a child process), {@code HttpWire} (Streamable HTTP, JSON or SSE answers, sessions in
 *       the legacy era, {@code Mcp-Method}/{@code Mcp-Name}/{@code MCP-Protocol-Version} headers
 *       in 2026-07-28) and {@code SseWire} (GET the stream, wait for {@code endpoint}, POST, read
 *       answers as {@code message} events).
 *   <li>{@code Template} is the case language's values: placeholders in requests, and matchers,
 *       exact or partial objects and array forms in expectations.
 * </ul>
 *
 * <p>It depends on nothing of the server: only the JDK's HTTP client, Jackson and SLF4J, so it
 * tests a server from outside exactly as an agent would see it. It is not thread-safe; one run
 * uses one thread (plus a reader thread per connection).
 */
package dev.gram.conformance;
