package dev.gram.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.store.CommitReceipt;
import dev.gram.testing.SharedContract;
import dev.gram.tools.spi.Tool;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * The contract's example requests, sent after reproducing the contract's create and patch, answer
 * with the contract's shapes: the same keys at every level, the same nesting, rows of the same
 * arity, values of the same JSON kinds. Values that do not depend on when or by whom the fixture
 * was written (ids, titles, fields, rows, Markdown) are equal too; hashes, times and agent names
 * are ours. Skipped when the contract is not beside the checkout.
 */
class ContractExamplesTest extends ReadingTest {
  static final String[] READING_TOOLS = {
    "gram_list", "gram_get", "gram_context", "gram_relations", "gram_brief", "gram_read", "gram_changes", "gram_range", "gram_state"
  };

  JsonObject tools;

  /** The contract's gram_create then gram_patch, through the store. */
  void reproduceTheContractsWrites() {
    tools = SharedContract.tools();
    JsonObject create = tools.getJsonObject("gram_create").getJsonObject("exampleRequest");
    JsonObject patch = tools.getJsonObject("gram_patch").getJsonObject("exampleRequest");
    String path = create.getString("path");
    if (store.vault().peek(path) != null) {
      return;
    }
    CommitReceipt c = store.create(path, create.getString("title"), create.getValue("content"), "thegram-descriptor-fixture", null,
        dev.gram.edit.Creation.newDocumentId());
    assertThat(c.created()).containsExactly("d1");
    CommitReceipt p = store.patchAt(patch.getString("path"), patch.getInteger("base_revision"), c.hash(),
        patch.getJsonArray("operations"), "thegram-descriptor-fixture", null, patch.getString("request_id"));
    assertThat(p.rev()).isEqualTo(1);
  }

  JsonObject expected(String tool) {
    return tools.getJsonObject(tool).getJsonObject("exampleResult").getJsonObject("structuredContent");
  }

  JsonObject actual(String tool) {
    return ok(tool, tools.getJsonObject(tool).getJsonObject("exampleRequest"));
  }

  /** Same keys, nesting, array lengths and JSON kinds, all the way down. */
  static void assertSameShape(Object expected, Object actual, String where) {
    if (expected instanceof JsonObject e) {
      assertThat(actual).as(where).isInstanceOf(JsonObject.class);
      JsonObject a = (JsonObject) actual;
      assertThat(a.fieldNames()).as(where + " keys").containsExactlyInAnyOrderElementsOf(e.fieldNames());
      for (String k : e.fieldNames()) {
        assertSameShape(e.getValue(k), a.getValue(k), where + "." + k);
      }
    } else if (expected instanceof JsonArray e) {
      assertThat(actual).as(where).isInstanceOf(JsonArray.class);
      JsonArray a = (JsonArray) actual;
      assertThat(a.size()).as(where + " length").isEqualTo(e.size());
      for (int i = 0; i < e.size(); i++) {
        assertSameShape(e.getValue(i), a.getValue(i), where + "[" + i + "]");
      }
    } else if (expected == null) {
      assertThat(actual).as(where).isNull();
    } else if (expected instanceof Number) {
      assertThat(actual).as(where).isInstanceOf(Number.class);
    } else {
      assertThat(actual).as(where).isInstanceOf(expected.getClass());
    }
  }

  @Test
  void everyReadingToolsExampleRequestAnswersWithTheContractsShape() {
    reproduceTheContractsWrites();
    for (String tool : READING_TOOLS) {
      assertSameShape(expected(tool), actual(tool), tool);
    }
  }

  @Test
  void theValuesThatDoNotDependOnTimeOrHashAreTheContracts() {
    reproduceTheContractsWrites();
    assertThat(actual("gram_list").getJsonArray("entities")).isEqualTo(expected("gram_list").getJsonArray("entities"));
    assertThat(actual("gram_get").getJsonObject("entity")).isEqualTo(expected("gram_get").getJsonObject("entity"));
    assertThat(actual("gram_context").getJsonArray("items")).isEqualTo(expected("gram_context").getJsonArray("items"));
    assertThat(actual("gram_relations").getJsonArray("edges")).isEqualTo(expected("gram_relations").getJsonArray("edges"));

    JsonObject read = actual("gram_read");
    for (String k : new String[] {"md", "section", "level"}) {
      assertThat(read.getValue(k)).as("gram_read " + k).isEqualTo(expected("gram_read").getValue(k));
    }

    JsonObject brief = actual("gram_brief");
    JsonObject briefWant = expected("gram_brief");
    assertThat(brief.getJsonObject("counts")).isEqualTo(briefWant.getJsonObject("counts"));
    assertThat(brief.getJsonArray("open")).isEqualTo(briefWant.getJsonArray("open"));
    assertThat(brief.getString("scope")).isEqualTo(briefWant.getString("scope"));
    JsonArray docRow = brief.getJsonArray("docs").getJsonArray(0);
    assertThat(docRow.getList().subList(0, 3)).isEqualTo(briefWant.getJsonArray("docs").getJsonArray(0).getList().subList(0, 3));
    for (int i = 0; i < 2; i++) {
      JsonArray row = brief.getJsonArray("recent").getJsonArray(i);
      JsonArray want = briefWant.getJsonArray("recent").getJsonArray(i);
      assertThat(row.getValue(1)).isEqualTo(want.getValue(1));
      assertThat(row.getValue(4)).isEqualTo(want.getValue(4));
      assertThat(row.getValue(5)).isEqualTo(want.getValue(5));
    }
    assertThat(brief.getString("next")).isEqualTo(docRow.getString(4));

    JsonObject changes = actual("gram_changes").getJsonArray("changes").getJsonObject(0);
    JsonObject changesWant = expected("gram_changes").getJsonArray("changes").getJsonObject(0);
    for (String k : new String[] {"add", "set", "path", "rev", "by"}) {
      assertThat(changes.getValue(k)).as("gram_changes " + k).isEqualTo(changesWant.getValue(k));
    }

    JsonArray events = actual("gram_range").getJsonArray("events");
    JsonArray eventsWant = expected("gram_range").getJsonArray("events");
    for (int i = 0; i < eventsWant.size(); i++) {
      for (String k : new String[] {"actor", "agent", "revision", "request_id"}) {
        assertThat(events.getJsonObject(i).getValue(k)).as("gram_range event " + i + " " + k).isEqualTo(eventsWant.getJsonObject(i).getValue(k));
      }
    }

    JsonObject state = actual("gram_state");
    JsonObject stateWant = expected("gram_state");
    assertThat(state.getJsonArray("entities")).isEqualTo(stateWant.getJsonArray("entities"));
    assertThat(state.getString("title")).isEqualTo(stateWant.getString("title"));
    assertThat(state.getJsonObject("at").getValue("rev")).isEqualTo(stateWant.getJsonObject("at").getValue("rev"));
    assertThat(state.getJsonObject("at").getValue("eff")).isNull();

    // Every answer's doc identity is the CAS pair of the document as it is now.
    JsonObject identity = actual("gram_list").getJsonObject("doc");
    assertThat(identity.fieldNames()).containsExactlyInAnyOrder("hash", "path", "rev");
    assertThat(identity.getInteger("rev")).isEqualTo(1);
    assertThat(identity.getString("hash")).isEqualTo(store.read(identity.getString("path")).shortHash());
    for (String tool : new String[] {"gram_get", "gram_read", "gram_range", "gram_state"}) {
      assertThat(actual(tool).getJsonObject("doc")).as(tool + " doc").isEqualTo(identity);
    }
    for (String tool : new String[] {"gram_context", "gram_relations", "gram_changes"}) {
      assertThat(actual(tool).getJsonArray("docs")).as(tool + " docs").containsExactly(identity);
    }
  }

  @Test
  void theNineReadingToolsAreRegisteredReadOnlyWithTheContractsSchemas() {
    JsonObject contract = SharedContract.tools();
    for (String tool : READING_TOOLS) {
      Tool t = server.services().tools().get(tool);
      assertThat(t).as(tool).isNotNull();
      assertThat(t.readOnly()).as(tool).isTrue();
      assertThat(t.inputSchema()).as(tool).isEqualTo(contract.getJsonObject(tool).getJsonObject("inputSchema"));
      assertThat(t.description()).as(tool).isNotBlank();
    }
    assertThat(server.services().tools().get("gram_context")).isInstanceOf(GramContextTool.class);
  }
}
