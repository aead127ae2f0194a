package dev.gram.transport;

import dev.gram.protocol.ProtocolMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
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
 *   <li>{@code gram_sessions_open{transport}} — legacy Streamable HTTP sessions (open until the
 *       client's DELETE, or one hour without a request) and SSE connections
 *   <li>{@code gram_write_queue_depth} — writes waiting in the store's write actors
 *   <li>{@code gram_refused_total{reason}} — requests and calls refused for who sent them: an HTTP
 *       request's credential ({@code missing_token}, {@code invalid_token}, {@code expired}, {@code
 *       wrong_audience}, {@code wrong_issuer}, {@code bad_signature}, {@code unknown_agent}, {@code
 *       insufficient_scope}) or a call the caller's approvals do not reach ({@code
 *       outside_approvals}, {@code read_only})
 *   <li>{@code gram_auth_mode{mode}} — 1, labelled with how callers are recognized (none, token,
 *       agents, oauth, or several joined by +)
 *   <li>{@code gram_build_info{version}} — 1, labelled with the version the server was built as
 *   <li>whatever the server adds with {@link #gauge} (the search index's counts)
 *   <li>the JVM's and the process's own: {@code jvm_memory_*}, {@code jvm_gc_*}, {@code
 *       jvm_threads_*}, {@code jvm_classes_*}, {@code process_cpu_usage}, {@code
 *       process_uptime_seconds}, {@code process_files_open_files}, {@code system_cpu_count}
 * </ul>
 */
public final class ServerMetrics implements ProtocolMetrics, AutoCloseable {
  private final PrometheusMeterRegistry registry;
  /** Listens to the JVM's GC notifications until {@link #close}. */
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private volatile IntSupplier writeQueueDepth = () -> 0;
  private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();
  /** Tool-call counters by tool, then transport, then outcome (an index of {@link #OUTCOMES}). */
  private final Map<String, Map<String, AtomicReferenceArray<Counter>>> callCounters = new ConcurrentHashMap<>();
  private static final String[] OUTCOMES = {"ok", "error", "cancelled"};

  public ServerMetrics() {
    this(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  public ServerMetrics(PrometheusMeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("gram.write.queue.depth", this, m -> m.writeQueueDepth.getAsInt())
        .description("Writes waiting in the store's write actors")
        .register(registry);
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
  }

  /** {@code gram_build_info{version} 1}: which build is running, for dashboards and alerts. */
  public void buildInfo(String version) {
    Gauge.builder("gram.build.info", () -> 1).tag("version", version)
        .description("The version this server was built as").register(registry);
  }

  /** A gauge the server feeds, such as the search index's counts; {@code tags} are name, value pairs. */
  public void gauge(String name, String description, Supplier<Number> value, String... tags) {
    Gauge.builder(name, value).tags(tags).description(description).register(registry);
  }

  @Override
  public void close() {
    gc.close();
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** The store reports its queue here once it exists; until then the gauge reads 0. */
  public void writeQueueDepth(IntSupplier depth) {
    this.writeQueueDepth = depth == null ? () -> 0 : depth;
  }

  private final java.util.concurrent.atomic.LongAdder activity = new java.util.concurrent.atomic.LongAdder();

  /**
   * Tool calls so far: unchanged between two readings means no agent was served (scrapes of
   * /metrics and /healthz do not count).
   */
  public long activity() {
    return activity.sum();
  }

  /** One HTTP request answered (or its connection closed), by method and status. */
  public void httpRequest(String method, int status) {
    counters
        .computeIfAbsent(
            List.of("http", method, Integer.toString(status)),
            k ->
                Counter.builder("gram.http.requests")
                    .description("HTTP requests by method and status (an SSE stream counts when it ends)")
                    .tag("method", method)
                    .tag("status", Integer.toString(status))
                    .register(registry))
        .increment();
  }

  public void sessions(String transport, Supplier<Number> open) {
    Gauge.builder("gram.sessions.open", open)
        .tag("transport", transport)
        .description("Open legacy sessions: Streamable HTTP until DELETE or 1 hour idle; SSE while connected")
        .register(registry);
  }

  @Override
  public void toolCall(
      String tool, String transport, long nanos, String errorCode, boolean cancelled) {
    activity.increment();
    int outcome = cancelled ? 2 : errorCode == null ? 0 : 1;
    // Meters are cached per tag set: registry lookups cost more than the increments themselves.
    // Found by tool and transport, not by a list of the tags made and hashed on every call (which
    // a start's first calls run interpreted).
    AtomicReferenceArray<Counter> byOutcome = callCounters
        .computeIfAbsent(tool, t -> new ConcurrentHashMap<>())
        .computeIfAbsent(transport, t -> new AtomicReferenceArray<>(OUTCOMES.length));
    Counter counter = byOutcome.get(outcome);
    if (counter == null) {
      // Racing threads get the same meter: the registry keeps one per name and tags.
      counter = Counter.builder("gram.tool.calls")
          .description("Tool calls by tool, transport and outcome")
          .tag("tool", tool)
          .tag("transport", transport)
          .tag("outcome", OUTCOMES[outcome])
          .register(registry);
      byOutcome.set(outcome, counter);
    }
    counter.increment();
    if (errorCode != null) {
      error(errorCode, "tool");
    }
    if (!cancelled) {
      timers
          .computeIfAbsent(
              tool,
              t ->
                  Timer.builder("gram.tool.latency")
                      .description("Tool call latency, from validated arguments to the answer")
                      .tag("tool", t)
                      .publishPercentileHistogram()
                      .register(registry))
          .record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void refused(String reason) {
    counters
        .computeIfAbsent(
            List.of("refused", reason),
            k ->
                Counter.builder("gram.refused")
                    .description("Requests and calls refused for who sent them, by reason")
                    .tag("reason", reason)
                    .register(registry))
        .increment();
  }

  /** {@code gram_auth_mode{mode} 1}: how this server recognizes its callers. */
  public void authMode(String mode) {
    Gauge.builder("gram.auth.mode", () -> 1).tag("mode", mode)
        .description("How this server recognizes its callers").register(registry);
  }

  @Override
  public void protocolError(String method, int code) {
    error(Integer.toString(code), "protocol");
  }

  private void error(String code, String kind) {
    counters
        .computeIfAbsent(
            List.of("errors", code, kind),
            k ->
                Counter.builder("gram.errors")
                    .description("Errors by code: tool error codes and JSON-RPC error codes")
                    .tag("code", code)
                    .tag("kind", kind)
                    .register(registry))
        .increment();
  }

  public String scrape() {
    return registry.scrape();
  }
}
