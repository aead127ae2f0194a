package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** /metrics counts tool calls by tool, transport and outcome, each combination on its own line. */
class ServerMetricsToolCallsTest {
  @Test
  void eachToolTransportAndOutcomeIsCountedApart() {
    try (ServerMetrics metrics = new ServerMetrics()) {
      metrics.toolCall("gram_get", "stdio", 1_000, null, false);
      metrics.toolCall("gram_get", "stdio", 1_000, null, false);
      metrics.toolCall("gram_get", "http", 1_000, null, false);
      metrics.toolCall("gram_get", "stdio", 1_000, "E_ARGUMENT", false);
      metrics.toolCall("gram_patch", "stdio", 1_000, null, true);
      String text = metrics.scrape();
      assertThat(text)
          .contains("gram_tool_calls_total{outcome=\"ok\",tool=\"gram_get\",transport=\"stdio\"} 2.0")
          .contains("gram_tool_calls_total{outcome=\"ok\",tool=\"gram_get\",transport=\"http\"} 1.0")
          .contains("gram_tool_calls_total{outcome=\"error\",tool=\"gram_get\",transport=\"stdio\"} 1.0")
          .contains("gram_tool_calls_total{outcome=\"cancelled\",tool=\"gram_patch\",transport=\"stdio\"} 1.0")
          .contains("gram_errors_total{code=\"E_ARGUMENT\",kind=\"tool\"} 1.0")
          .doesNotContain("tool=\"gram_patch\",transport=\"http\"");
      assertThat(text).contains("gram_tool_latency_seconds_count{tool=\"gram_get\"} 4");
      assertThat(text).doesNotContain("gram_tool_latency_seconds_count{tool=\"gram_patch\"} 1");
    }
  }
}
