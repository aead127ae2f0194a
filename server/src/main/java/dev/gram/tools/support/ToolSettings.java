package dev.gram.tools.support;

import java.time.Duration;

/**
 * The settings the tools read, and nothing else of the server's configuration: the server builds
 * them from its command line ({@code Services}), so the tools never see how they were given.
 *
 * @param readDeadline how long one call of a reading tool may take before it answers {@code
 *     E_TIMEOUT} ({@code --read-deadline-ms})
 * @param cluster what {@code gram_capabilities} says of the cluster this node belongs to (its
 *     name and the number of members now), or {@code null} when the server runs alone
 */
public record ToolSettings(Duration readDeadline, java.util.function.Supplier<io.vertx.core.json.JsonObject> cluster) {
  /** The read deadline when none is given: 15 seconds. */
  public static final Duration DEFAULT_READ_DEADLINE = Duration.ofSeconds(15);

  public ToolSettings {
    if (readDeadline == null) {
      readDeadline = DEFAULT_READ_DEADLINE;
    }
  }

  public ToolSettings(Duration readDeadline) {
    this(readDeadline, null);
  }

  /** Every setting at its default. */
  public static ToolSettings defaults() {
    return new ToolSettings(DEFAULT_READ_DEADLINE);
  }
}
