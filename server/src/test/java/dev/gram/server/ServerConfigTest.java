package dev.gram.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The serve flags read as they always did, now through picocli. */
class ServerConfigTest {
  private static ServerConfig parse(String... args) throws Exception {
    return ServerConfig.parse(args, Map.of());
  }

  @Test
  void defaultsAreTheDocumentedOnesWithTheIndexInsideTheVault() throws Exception {
    ServerConfig c = parse();
    assertThat(c.vault()).isEqualTo(Path.of("vault"));
    assertThat(c.index()).isEqualTo(Path.of("vault", ".gram-index"));
    assertThat(c.stdio()).isTrue();
    assertThat(c.http()).isTrue();
    assertThat(c.host()).isEqualTo("127.0.0.1");
    assertThat(c.port()).isEqualTo(4726);
    assertThat(c.maxBodyBytes()).isEqualTo(4L * 1024 * 1024);
    assertThat(c.idleTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(c.readDeadline()).isEqualTo(ServerConfig.DEFAULT_READ_DEADLINE);
    assertThat(c.semantic()).isTrue();
    assertThat(c.welcome()).isTrue();
    assertThat(parse("--vault", "/srv/v").index()).isEqualTo(Path.of("/srv/v/.gram-index"));
  }

  @Test
  void everyFlagInBothFormsAndTheLastToggleWins() throws Exception {
    ServerConfig c = parse("--vault=v", "--index", "i", "--no-stdio", "--stdio", "--no-stdio",
        "--port=0", "--host", "localhost", "--mount", "a=/x:rw", "--mount=b=/y", "--allow-origin", "http://a",
        "--allow-origin=http://b", "--max-body-bytes=2048", "--idle-timeout-seconds", "9",
        "--no-semantic", "--no-welcome", "--read-deadline-ms=250",
        "--token=s3cret", "--port", "5000");
    assertThat(c.vault()).isEqualTo(Path.of("v"));
    assertThat(c.index()).isEqualTo(Path.of("i"));
    assertThat(c.stdio()).isFalse();
    assertThat(c.http()).isTrue();
    assertThat(c.port()).isEqualTo(5000);
    assertThat(c.host()).isEqualTo("localhost");
    assertThat(c.mounts()).containsExactly(
        new ServerConfig.Mount("a", Path.of("/x"), true), new ServerConfig.Mount("b", Path.of("/y"), false));
    assertThat(c.allowedOrigins()).containsExactly("http://a", "http://b");
    assertThat(c.maxBodyBytes()).isEqualTo(2048);
    assertThat(c.idleTimeout()).isEqualTo(Duration.ofSeconds(9));
    assertThat(c.semantic()).isFalse();
    assertThat(c.welcome()).isFalse();
    assertThat(c.readDeadline()).isEqualTo(Duration.ofMillis(250));
    assertThat(c.token()).isEqualTo("s3cret");
  }

  @Test
  void theTokenComesFromTheEnvironmentAndANonLoopbackHostNeedsOne() throws Exception {
    assertThat(ServerConfig.parse(new String[] {"--host", "0.0.0.0"}, Map.of("GRAM_MCP_TOKEN", "t")).token())
        .isEqualTo("t");
    assertThatThrownBy(() -> parse("--host", "0.0.0.0"))
        .isInstanceOf(ServerConfig.UsageException.class)
        .hasMessageContaining("not a loopback address");
    assertThat(parse("--host", "0.0.0.0", "--no-http").http()).isFalse();
  }

  @Test
  void badCommandLinesSayWhatIsWrongInTheOldWords() {
    assertThatThrownBy(() -> parse("--bogus")).hasMessageContaining("unknown option --bogus");
    assertThatThrownBy(() -> parse("--port")).hasMessageContaining("--port needs a value");
    assertThatThrownBy(() -> parse("--port", "x")).hasMessageContaining("--port needs a number, not x");
    assertThatThrownBy(() -> parse("--port", "70000")).hasMessageContaining("--port must be between 0 and 65535");
    assertThatThrownBy(() -> parse("--no-stdio", "--no-http")).hasMessageContaining("both transports are off");
    assertThatThrownBy(() -> parse("--mount", "nope")).hasMessageContaining("--mount needs <id>=<folder>");
  }

  @Test
  void clusterFlagsNeedClusterAndNameAWayIn() throws Exception {
    assertThat(parse().cluster()).isNull();
    assertThatThrownBy(() -> parse("--cluster-port", "5701")).hasMessageContaining("need --cluster");
    assertThatThrownBy(() -> parse("--cluster", "--cluster-members", "nohost"))
        .hasMessageContaining("--cluster-members needs host:port");
    assertThatThrownBy(() -> parse("--cluster", "--cluster-node", "../x")).hasMessageContaining("--cluster-node must be");
    ServerConfig c = parse("--vault", "v", "--cluster", "--cluster-port", "5801", "--cluster-members",
        "10.0.0.2:5801,10.0.0.3:5801", "--cluster-host", "10.0.0.1");
    assertThat(c.cluster().members()).containsExactly("10.0.0.2:5801", "10.0.0.3:5801");
    assertThat(c.cluster().node()).isEqualTo("10.0.0.1-5801");
    assertThat(c.index()).as("each node its own index").isEqualTo(java.nio.file.Path.of("v", ".gram-index-nodes", "10.0.0.1-5801"));
  }

  @Test
  void helpAndVersionAreRequestsNotErrors() throws Exception {
    assertThat(parse("--help").help()).isTrue();
    assertThat(parse("-h").help()).isTrue();
    assertThat(parse("--version").version()).isTrue();
    assertThat(ServerConfig.usage()).contains("--vault", "--no-stdio", ".gram-index").doesNotContain("inject");
  }
}
