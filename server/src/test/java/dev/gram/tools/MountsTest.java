package dev.gram.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Mounted collections are part of what the reading tools reach, under their exact key. */
class MountsTest extends ReadingTest {
  java.nio.file.Path mount;

  @Override
  String[] serverOptions() {
    try {
      mount = Files.createTempDirectory("gram-mount-");
      return new String[] {"--mount", "team=" + mount + ":rw"};
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @org.junit.jupiter.api.AfterAll
  void removeMount() throws IOException {
    try (java.util.stream.Stream<java.nio.file.Path> s = Files.walk(mount)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @BeforeAll
  void fixture() {
    store.create("local/a.gram", "Local", "x");
    store.create("@mounts/team/proj/b.gram", "Mounted", new JsonObject().put("records",
        new JsonArray().add(dev.gram.testing.StoreWrites.record("task", "t", "Mounted task", "x", "open"))));
  }

  @Test
  void everyDocumentIncludesMountedOnesAndAMountKeyIsAFolder() {
    assertThat(ok("gram_list", "{}").getJsonArray("docs")).containsExactly(
        array("['@mounts/team/proj/b.gram','Mounted',0]"), array("['local/a.gram','Local',0]"));
    assertThat(ok("gram_list", "{'path':'@mounts/team'}").getJsonArray("docs")).containsExactly(array("['@mounts/team/proj/b.gram','Mounted',0]"));
    assertThat(ok("gram_brief", "{'folder':'@mounts/team/proj'}").getJsonArray("open").getJsonArray(0).getString(0))
        .isEqualTo("@mounts/team/proj/b.gram#t");
    assertThat(ok("gram_relations", "{'from':{'path':'@mounts/team/proj/b.gram','entity':'t'}}").getJsonArray("edges")).isEmpty();
    assertError(call("gram_list", "{'path':'@mounts/other'}"), "E_PATH", "Path does not start with a mounted collection");
  }
}
