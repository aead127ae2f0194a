package dev.gram.tools;

import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A revision whose rows do not fit one answer is paged inside: following {@code more} returns
 * every row exactly once, in order, and then the revisions after it.
 */
class GramChangesPagingTest extends ReadingTest {
  static final String BIG = "big/many.gram";
  static final int RECORDS = 302;

  @BeforeAll
  void fixture() {
    JsonArray records = new JsonArray();
    for (int i = 0; i < RECORDS; i++) {
      records.add(record("task", "t" + i, "Task " + i + " " + "with a long title that says a lot about nothing ".repeat(4)));
    }
    store.create(BIG, "Many", new JsonObject().put("text", "# Many").put("records", records));
    for (int i = 1; i <= 6; i++) {
      store.patch(BIG, ops(set("t" + i, "s", "active")), "agent", null, null);
    }
  }

  @Test
  void followingMoreReturnsEveryRowOfALargeRevisionExactlyOnceInOrder() {
    List<String> addIds = new ArrayList<>();
    List<Integer> revs = new ArrayList<>();
    int pages = 0;
    JsonObject args = json("{'path':'" + BIG + "','since':'2000-01-01'}");
    while (true) {
      JsonObject r = ok("gram_changes", args);
      pages++;
      for (Object o : r.getJsonArray("changes")) {
        JsonObject c = (JsonObject) o;
        assertThat(c.containsKey("omitted")).as("no row is ever dropped").isFalse();
        if (revs.isEmpty() || revs.get(revs.size() - 1) != c.getInteger("rev")) {
          revs.add(c.getInteger("rev"));
        }
        JsonArray add = c.getJsonArray("add", new JsonArray());
        if (c.getInteger("rev") == 0) {
          assertThat(c.getInteger("from_row", 0)).as("a continuing entry starts where the last stopped").isEqualTo(addIds.size());
        }
        for (Object row : add) {
          addIds.add(((JsonArray) row).getString(0));
        }
      }
      String more = r.getString("more");
      if (more == null) {
        break;
      }
      args = json("{'path':'" + BIG + "','since':'2000-01-01'}").put("cursor", more);
    }
    List<String> expected = new ArrayList<>();
    expected.add("doc");
    for (int i = 0; i < RECORDS; i++) {
      expected.add("t" + i);
    }
    // Revision 0 adds the owner and every record; each id once, in order.
    assertThat(addIds).containsExactlyElementsOf(expected);
    assertThat(revs).containsExactly(0, 1, 2, 3, 4, 5, 6);
    assertThat(pages).as("a revision of this size needs several answers").isGreaterThan(2);
  }

  @Test
  void aPageEndingInsideARevisionSaysHowManyRowsFollowAndNextRepeatsThatRevision() {
    JsonObject first = ok("gram_changes", json("{'path':'" + BIG + "','since':'2000-01-01'}"));
    JsonArray changes = first.getJsonArray("changes");
    assertThat(changes).hasSize(1);
    JsonObject rev0 = changes.getJsonObject(0);
    int given = rev0.getJsonArray("add").size();
    assertThat(rev0.getInteger("rows_left")).isEqualTo(RECORDS + 1 - given);
    assertThat(first.getString("more")).isNotNull();
    // since = next lists revision 0 again rather than skipping the rows still to come.
    JsonObject again = ok("gram_changes", json("{'path':'" + BIG + "'}").put("since", first.getString("next")));
    assertThat(again.getJsonArray("changes").getJsonObject(0).getInteger("rev")).isEqualTo(0);
  }
}
