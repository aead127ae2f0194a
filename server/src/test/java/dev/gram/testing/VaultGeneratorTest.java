package dev.gram.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.GramWriter;
import dev.gram.format.Link;
import dev.gram.format.Revision;
import dev.gram.store.DocSnapshot;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generator makes what it promises, the same way every time. */
class VaultGeneratorTest {
  @TempDir Path dir;

  static List<String> texts(GramTestServer server) {
    return server.services().vault().documents().stream().map(s -> s.path() + "\n" + GramWriter.write(s.state())).toList();
  }

  @Test
  void theSameSeedGivesTheSameDocuments() {
    VaultGenerator.Spec spec = new VaultGenerator.Spec(42).projects(2).documentsPerProject(2).recordsPerDocument(20);
    List<String> first;
    try (GramTestServer s = GramTestServer.start(dir.resolve("one"))) {
      VaultGenerator.generate(s.services().vault(), spec);
      first = texts(s);
    }
    try (GramTestServer s = GramTestServer.start(dir.resolve("two"))) {
      VaultGenerator.generate(s.services().vault(), spec);
      assertThat(texts(s)).isEqualTo(first);
    }
    try (GramTestServer s = GramTestServer.start(dir.resolve("three"))) {
      VaultGenerator.generate(s.services().vault(), new VaultGenerator.Spec(43).projects(2).documentsPerProject(2).recordsPerDocument(20));
      assertThat(texts(s)).isNotEqualTo(first);
    }
  }

  @Test
  void aSpecOfTenRecordsMakesOneDocumentWithExactlyTenRecordsAtRevisionZero() {
    try (GramTestServer s = GramTestServer.start(dir.resolve("ten"))) {
      VaultGenerator.Result r = VaultGenerator.generate(s.services().vault(),
          new VaultGenerator.Spec(1).projects(1).documentsPerProject(1).recordsPerDocument(10).revisionsPerDocument(1).relationShare(0));
      assertThat(r.records()).isEqualTo(10);
      DocSnapshot d = s.services().vault().documents().get(0);
      assertThat(d.state().records()).hasSize(10);
      assertThat(d.rev()).isZero();
    }
  }

  @Test
  void aGeneratedVaultHasTypesDatesStatusesLinksCyclesRelationsAndRealHistories() {
    try (GramTestServer s = GramTestServer.start(dir.resolve("rich"))) {
      VaultGenerator.Result r = VaultGenerator.generate(s.services().vault(),
          new VaultGenerator.Spec(9).projects(2).documentsPerProject(3).recordsPerDocument(60).revisionsPerDocument(4)
              .importedDocuments(1).externalEdits(1));
      List<DocSnapshot> docs = s.services().vault().documents();
      assertThat(docs).hasSize(7);
      Set<EntityType> types = new HashSet<>();
      Set<String> dateForms = new HashSet<>();
      Set<String> statuses = new HashSet<>();
      Set<String> actors = new HashSet<>();
      Set<String> agents = new HashSet<>();
      boolean crossLink = false;
      boolean effective = false;
      boolean noEffective = false;
      int relations = 0;
      for (DocSnapshot d : docs) {
        for (Entity e : d.state().records()) {
          types.add(e.type());
          if (e.first("x") != null) {
            statuses.add(e.first("x"));
          }
          for (String k : List.of("due", "at", "observed")) {
            String v = e.first(k);
            if (v != null) {
              dateForms.add(v.length() == 7 ? "month" : v.length() == 10 ? "day" : "instant");
            }
          }
          for (Link l : e.links()) {
            crossLink |= l.crossDocument();
          }
          relations += e.type() == EntityType.RELATION ? 1 : 0;
        }
        for (Revision rev : d.revisions()) {
          actors.add(rev.actor());
          agents.add(rev.by());
          effective |= rev.effectiveAt() != null;
          noEffective |= rev.effectiveAt() == null;
        }
      }
      assertThat(types).hasSizeGreaterThan(15).contains(EntityType.TASK, EntityType.EVENT, EntityType.DECISION, EntityType.METRIC, EntityType.RELATION);
      assertThat(dateForms).containsExactlyInAnyOrder("day", "month", "instant");
      assertThat(statuses).contains("open", "completed", "accepted");
      assertThat(actors).containsExactlyInAnyOrder("agent", "external", "import");
      assertThat(agents).contains("agent-a", "agent-b", "agent-c");
      assertThat(crossLink).isTrue();
      assertThat(effective).isTrue();
      assertThat(noEffective).isTrue();
      assertThat(relations).isPositive();
      DocSnapshot first = s.services().vault().peek(r.document(0, 0).path());
      assertThat(first.rev()).isGreaterThanOrEqualTo(3);
      // The hubs of a project link into a cycle across its documents.
      List<String> cycle = r.hubCycle(0);
      for (int i = 0; i < cycle.size(); i++) {
        DocSnapshot doc = s.services().vault().peek(r.document(0, i).path());
        assertThat(doc.state().record("hub").links()).contains(new Link("depends", cycle.get((i + 1) % cycle.size())));
      }
      // The scratch record of revision 1 was removed again in revision 2.
      assertThat(first.stateAt(1).record("scratch")).isNotNull();
      assertThat(first.state().record("scratch")).isNull();
    }
  }

  /** The benchmarks' size; run with -Dgram.generator.large=true (minutes, not seconds). */
  @Test
  void aHundredThousandRecords() {
    assumeTrue(Boolean.getBoolean("gram.generator.large"), "skipped: set -Dgram.generator.large=true to generate 100,000 records");
    try (GramTestServer s = GramTestServer.start(dir.resolve("large"))) {
      VaultGenerator.Result r = VaultGenerator.generate(s.services().vault(),
          new VaultGenerator.Spec(1).projects(10).documentsPerProject(10).recordsPerDocument(1000).placedPerDocument(40).relationShare(0.02));
      assertThat(r.records()).isGreaterThanOrEqualTo(100_000);
      long stored = s.services().vault().documents().stream().mapToLong(d -> d.state().records().size()).sum();
      assertThat(stored).isGreaterThanOrEqualTo(100_000);
      // The folder-wide reads answer well within the default deadline at this size.
      String doc = r.document(3, 4).path();
      for (String[] call : new String[][] {
          {"gram_brief", "{}"},
          {"gram_list", "{\"select\":{\"type\":\"event\",\"from\":\"2026-03\",\"to\":\"2026-04\"}}"},
          {"gram_changes", "{}"},
          {"gram_relations", "{\"from\":{\"path\":\"" + doc + "\",\"entity\":\"hub\"},\"depth\":3,\"direction\":\"both\"}"},
          {"gram_range", "{\"path\":\"" + doc + "\",\"query\":\"lunar\"}"},
          {"gram_state", "{\"path\":\"" + doc + "\",\"selector\":{\"revision\":0}}"}}) {
        long start = System.nanoTime();
        ToolResult res = s.call(call[0], call[1]);
        long ms = (System.nanoTime() - start) / 1_000_000;
        org.slf4j.LoggerFactory.getLogger(VaultGeneratorTest.class).info("{} on 100,000 records: {} ms", call[0], ms);
        res.ok();
        assertThat(ms).as(call[0]).isLessThan(5_000);
      }
    }
  }
}
