package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.GramParser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DocUnitsTest {
  static List<DocUnits.Unit> units(String gram) {
    return DocUnits.units(GramParser.parseOrThrow(gram).state());
  }

  @Test
  void sectionsCarryTheirHeadingPathAndOnlyTheirOwnText() {
    List<DocUnits.Unit> u = units("@gram 2\ndoc d_x\nt Handbook\nd What we do\n::rich\n"
        + "Intro words.\n\n# Top\n\nTop text with a [mention](@r1).\n\n[[r1]]\n\n## Child\n\n- item one\n- item two\n\n"
        + "# Second\n\n| a | b |\n|---|---|\n| cell | other |\n::end\n\nTSK r1\nt A task\nx open\ntag ops\ns team-a\n");
    assertThat(u.get(0).kind()).isEqualTo(Schema.KIND_RECORD);
    assertThat(u.get(0).title()).isEqualTo("A task");
    assertThat(u.get(0).status()).isEqualTo("open");
    assertThat(u.get(0).scopes()).containsExactly("team-a");
    assertThat(u.get(0).text()).contains("task", "open", "ops");
    List<String> contexts = new ArrayList<>();
    for (DocUnits.Unit x : u.subList(1, u.size())) {
      contexts.add(x.context());
      assertThat(x.type()).isEqualTo("document");
      assertThat(x.entityId()).isEqualTo("d_x");
      assertThat(x.title()).isEqualTo("Handbook");
    }
    assertThat(contexts).containsExactly(null, "Top", "Top > Child", "Second");
    // The preamble holds the owner's description and the text before the first heading.
    assertThat(u.get(1).text()).contains("What we do", "Intro words.");
    // A mention keeps its label; the placed record is not repeated in the section.
    assertThat(String.join(" ", u.get(2).text())).contains("Top text with a mention").doesNotContain("[[r1]]");
    assertThat(String.join(" ", u.get(3).text())).contains("item one", "item two");
    assertThat(String.join(" ", u.get(4).text())).contains("cell", "other").doesNotContain("|");
  }

  private static final String TALK = "@gram 2\ndoc d_t\nt Session\n\n"
      + "EVT e1\nt Ana: we adopted a puppy\nd We adopted a puppy from the shelter last Saturday\n\n"
      + "EVT e2\nt Ana: Luna destroyed the cushions\nd Bad news, Luna destroyed the couch cushions\n\n"
      + "EVT e3\nt Ben: oh no\nd Oh no, puppies chew everything when they are bored\n";

  @Test
  void anEventIsSearchedAndEmbeddedWithItsNeighbours() {
    List<DocUnits.Unit> u = units(TALK);
    DocUnits.Unit middle = u.get(1);
    // Keyword search reads both neighbours' words (at a low weight, Queries.NEAR_BOOST).
    assertThat(middle.near()).contains("puppy from the shelter", "puppies chew everything");
    assertThat(middle.text()).noneMatch(t -> t.contains("puppy"));
    // The vector reads the event's own text first, then its neighbours' openings.
    assertThat(middle.embedText()).startsWith("event: Ana: Luna destroyed the cushions. Bad news, Luna destroyed the couch cushions (")
        .contains("We adopted a puppy").contains("Oh no, puppies chew");
    assertThat(u.get(0).near()).contains("Luna destroyed");
  }

  @Test
  void aTaskIsEmbeddedAloneAndAnAppendedEventChangesOnlyThePreviousVector() {
    List<DocUnits.Unit> tasks = units("@gram 2\ndoc d_k\nt Tasks\n\nTSK a\nt Order the chairs\n\nTSK b\nt Book the venue\n");
    assertThat(tasks.get(1).embedText()).isEqualTo("task: Book the venue");
    assertThat(tasks.get(1).near()).isNull();

    List<DocUnits.Unit> before = units(TALK);
    List<DocUnits.Unit> after = units(TALK + "\nEVT e4\nt Ana: she sleeps now\nd She sleeps all afternoon now\n");
    assertThat(after.get(0).chunkKey()).isEqualTo(before.get(0).chunkKey());
    assertThat(after.get(1).chunkKey()).isEqualTo(before.get(1).chunkKey());
    assertThat(after.get(2).chunkKey()).as("e3 now has an event after it").isNotEqualTo(before.get(2).chunkKey());
  }

  @Test
  void aDocumentWithoutBodyIsStillOneUnit() {
    List<DocUnits.Unit> u = units("@gram 2\ndoc d_e\nt Empty doc\n");
    assertThat(u).hasSize(1);
    assertThat(u.get(0).title()).isEqualTo("Empty doc");
  }

  @Test
  void longSectionsAreCutIntoOverlappingChunksBelowTheModelWindow() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      sb.append("w").append(i).append(' ');
    }
    List<List<String>> chunks = DocUnits.chunks(List.of(sb.toString()));
    assertThat(chunks).hasSize(3);
    for (List<String> c : chunks) {
      assertThat(c.get(0).split(" ").length).isLessThanOrEqualTo(DocUnits.CHUNK_WORDS);
    }
    assertThat(chunks.get(1).get(0)).startsWith("w" + (DocUnits.CHUNK_WORDS - DocUnits.CHUNK_OVERLAP) + " ");
    assertThat(chunks.get(2).get(0)).endsWith("w399");
  }

  @Test
  void chunkKeysFollowTheTextSoVectorsSurviveUnrelatedEdits() {
    String a = "@gram 2\ndoc d_x\nt T\n\nTSK r1\nt Same\n\nTSK r2\nt Before\n";
    String b = "@gram 2\ndoc d_x\nt T\n\nTSK r1\nt Same\n\nTSK r2\nt After\n";
    assertThat(units(a).get(0).chunkKey()).isEqualTo(units(b).get(0).chunkKey());
    assertThat(units(a).get(1).chunkKey()).isNotEqualTo(units(b).get(1).chunkKey());
  }

  @Test
  void foldersOfAPath() {
    assertThat(DocMapper.folders("a/b/c.gram")).containsExactly("", "a", "a/b");
    assertThat(DocMapper.folders("top.gram")).containsExactly("");
    assertThat(DocMapper.folders("@mounts/m/p/x.gram")).containsExactly("@mounts", "@mounts/m", "@mounts/m/p");
  }
}
