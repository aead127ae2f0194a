package dev.gram.transport;

import dev.gram.protocol.ProtocolMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The server's own meters, next to the ones Vert.x Micrometer records for HTTP, in one Prometheus
 * registry served at {@code /metrics}:
 *
 * <ul>
 *   <li>{@code gram_tool_calls_total{tool,transport,outcome}} — outcome is ok, error or cancelled
 *   <li>{@code gram_errors_total{code,kind}} — tool error codes (kind=tool) and JSON-RPC codes
 *       (kind=protocol)
 *   <li>{@code gram_tool_latency_seconds{tool}} — a histogram, for p50/p99 in PromQL
 *   <li>{@code gram_sessions_open{transport}} — legacy Streamable HTTP sessions and SSE connections
 *   <li>{@code gram_write_queue_depth} — writes waiting in the store's write actors
 * </ul>
 */
public final class ServerMetrics implements ProtocolMetrics {
  private final PrometheusMeterRegistry registry;
  private volatile IntSupplier writeQueueDepth = () -> 0;

  public ServerMetrics() {
    this(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  public ServerMetrics(PrometheusMeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("gram.write.queue.depth", this, m -> m.writeQueueDepth.getAsInt())
        .description("Writes waiting in the store's write actors")
        .register(registry);
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** The store reports its queue here once it exists; until then the gauge reads 0. */
  public void writeQueueDepth(IntSupplier depth) {
    this.writeQueueDepth = depth == null ? () -> 0 : depth;
  }

  public void sessions(String transport, Supplier<Number> open) {
    Gauge.builder("gram.sessions.open", open)
        .tag("transport", transport)
        .description("Open legacy sessions")
        .register(registry);
  }

  @Override
  public void toolCall(
      String tool, String transport, long nanos, String errorCode, boolean cancelled) {
    String outcome = cancelled ? "cancelled" : errorCode == null ? "ok" : "error";
    Counter.builder("gram.tool.calls")
        .tag("tool", tool)
        .tag("transport", transport)
        .tag("outcome", outcome)
        .register(registry)
        .increment();
    if (errorCode != null) {
      Counter.builder("gram.errors").tag("code", errorCode).tag("kind", "tool").register(registry)
          .increment();
    }
    if (!cancelled) {
      Timer.builder("gram.tool.latency")
          .tag("tool", tool)
          .publishPercentileHistogram()
          .register(registry)
          .record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void protocolError(String method, int code) {
    Counter.builder("gram.errors")
        .tag("code", Integer.toString(code))
        .tag("kind", "protocol")
        .register(registry)
        .increment();
  }

  public String scrape() {
    return registry.scrape();
  }
}
