package dev.gram.store;

import static dev.gram.store.TestVault.ops;
import static dev.gram.store.TestVault.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.GramException;
import dev.gram.testing.disk.SimulatedDisk;
import io.vertx.core.json.JsonArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random sequences of what agents and operators do — creates, patches (valid, on a stale base,
 * replayed, with a request_id reused for another intent), edits by another program, older copies
 * of a file put back over it, clean restarts, killed processes and power cuts — against the real
 * store on real files (through a {@link SimulatedDisk}, which knows what a power cut keeps), and
 * a small model of what the contract says each must answer. Every answer and every reread must
 * agree with the model.
 *
 * <p>A power cut comes a random number of I/O operations into a patch (or just after it): the
 * patch is acknowledged or not; an acknowledged one must survive, and an unacknowledged one may
 * survive (its record was written, its fsync never returned) but only whole and only once.
 */
class StoreModelProperties {
  enum Kind { CREATE, PATCH, STALE, REPLAY, REUSE, EDIT, REWIND, RESTART, CRASH, POWER_CUT }

  record Step(Kind kind, int doc, int pick) {}

  /** The model: per document, its revision, short hash, and the counter its patches set. */
  static final class Doc {
    int rev;
    String hash;
    int counter;
    /** A copy of its file kept by a first REWIND (with the hash and counter it had then), for the next. */
    String copy;
    String copyHash;
    int copyCounter;
  }

  record Sent(String path, int base, String hash, String requestId, JsonArray ops, int rev, String receiptHash) {}

  @Property(tries = 25)
  void theStoreAnswersWhatTheModelSays(@ForAll("steps") List<Step> steps) throws Exception {
    Path top = Files.createTempDirectory("gram-model-");
    Path real = Files.createDirectories(top.resolve("0"));
    SimulatedDisk disk = SimulatedDisk.over(real);
    Path dir = disk.root();
    Map<Integer, Doc> model = new HashMap<>();
    List<Sent> sent = new ArrayList<>();
    int ids = 0;
    int cuts = 0;
    TestVault t = TestVault.openWithoutTimedCheckpoints(dir);
    try {
      for (Step step : steps) {
        final TestVault cur = t;
        String path = "m/d" + step.doc() + ".gram";
        Doc d = model.get(step.doc());
        switch (step.kind()) {
          case CREATE -> {
            if (d == null) {
              CommitReceipt r = t.create(path, "D" + step.doc(), "");
              Doc fresh = new Doc();
              fresh.hash = r.hash();
              model.put(step.doc(), fresh);
              assertThat(r.rev()).isZero();
            } else {
              assertCode(() -> cur.create(path, "again", ""), "STALE_REVISION");
            }
          }
          case PATCH -> {
            if (d == null) {
              continue;
            }
            String id = "req-" + (ids++);
            JsonArray o = ops(set("doc", "n", Integer.toString(d.counter + 1)));
            CommitReceipt r = t.patch(path, d.rev, d.hash, id, o);
            assertThat(r.rev()).isEqualTo(d.rev + 1);
            assertThat(r.replayed()).isFalse();
            sent.add(new Sent(path, d.rev, d.hash, id, o, r.rev(), r.hash()));
            d.rev = r.rev();
            d.hash = r.hash();
            d.counter++;
          }
          case STALE -> {
            if (d == null || d.rev == 0) {
              continue;
            }
            String staleId = "stale-" + (ids++);
            assertCode(() -> cur.patch(path, d.rev - 1, d.hash, staleId, ops(set("doc", "n", "x"))), "STALE_REVISION");
          }
          case REPLAY -> {
            if (sent.isEmpty()) {
              continue;
            }
            Sent s = sent.get(step.pick() % sent.size());
            CommitReceipt r = t.patch(s.path(), s.base(), s.hash(), s.requestId(), s.ops());
            assertThat(r.replayed()).isTrue();
            assertThat(r.rev()).isEqualTo(s.rev());
            assertThat(r.hash()).isEqualTo(s.receiptHash());
          }
          case REUSE -> {
            if (sent.isEmpty() || d == null) {
              continue;
            }
            Sent s = sent.get(step.pick() % sent.size());
            assertCode(() -> cur.patch(path, d.rev, d.hash, s.requestId(), ops(set("doc", "n", "other intent"))),
                "E_REQUEST_REUSE");
          }
          case EDIT -> {
            if (d == null) {
              continue;
            }
            // Another program edits the file as it is once checkpointed: the owner gets a field.
            t.vault.checkpointNow();
            Path file = dir.resolve(path);
            String text = Files.readString(file);
            int cut = text.indexOf('\n', text.indexOf("\ndoc ") + 1);
            Files.writeString(file, text.substring(0, cut) + "\nnote edited by hand " + step.pick() + text.substring(cut));
            TestVault.await(t.vault.refresh(t.vault.paths().document(path)));
            DocSnapshot s = t.read(path);
            assertThat(s.rev()).isEqualTo(d.rev + 1);
            assertThat(s.head().actor()).isEqualTo("external");
            d.rev = s.rev();
            d.hash = s.shortHash();
          }
          case REWIND -> {
            if (d == null) {
              continue;
            }
            t.vault.checkpointNow();
            Path file = dir.resolve(path);
            if (d.copy == null) {
              d.copy = Files.readString(file);
              d.copyHash = d.hash;
              d.copyCounter = d.counter;
              continue;
            }
            // Another program puts the older copy back: its state comes after every revision.
            Files.writeString(file, d.copy);
            TestVault.await(t.vault.refresh(t.vault.paths().document(path)));
            DocSnapshot s = t.read(path);
            if (d.copyHash.equals(d.hash)) {
              assertThat(s.rev()).as("the copy's state is the document's").isEqualTo(d.rev);
            } else {
              assertThat(s.rev()).as("the copy's state after every revision").isEqualTo(d.rev + 1);
              assertThat(s.head().actor()).isEqualTo("external");
              d.rev = s.rev();
              d.hash = s.shortHash();
              d.counter = d.copyCounter;
            }
            d.copy = null;
          }
          case RESTART -> {
            t.close();
            t = TestVault.openWithoutTimedCheckpoints(dir);
          }
          case CRASH -> {
            dir = disk.killProcess(); // what it wrote stays in the page cache
            t.vault.abandon();
            t = TestVault.openWithoutTimedCheckpoints(dir);
          }
          case POWER_CUT -> {
            // Cut the power a few operations into a patch of this document (or of nothing).
            String id = "cut-" + (ids++);
            DocSnapshot before = d == null ? null : t.read(path);
            disk.cutAfter(disk.operations() + step.pick() % 12);
            boolean acked = false;
            JsonArray o = ops(set("doc", "n", Integer.toString(d == null ? 0 : d.counter + 1)));
            if (d != null) {
              try {
                t.patch(path, d.rev, d.hash, id, o);
                acked = true;
              } catch (GramException e) {
                assertThat(e.code().name()).as("a write once the disk is gone").isIn("E_STORAGE", "COMMIT_UNKNOWN");
              }
            }
            disk.cutNow();
            t.vault.abandon();
            real = Files.createDirectories(top.resolve(Integer.toString(++cuts)));
            disk.restoreTo(real, step.pick() % 2 == 0 ? SimulatedDisk.Loss.ALL_UNSYNCED : SimulatedDisk.Loss.TORN_PREFIX,
                step.pick());
            disk = SimulatedDisk.over(real);
            dir = disk.root();
            t = TestVault.openWithoutTimedCheckpoints(dir);
            if (d != null) {
              DocSnapshot s = t.read(path);
              boolean kept = s.rev() == d.rev + 1;
              assertThat(kept || !acked).as("an acknowledged patch survives the power cut").isTrue();
              assertThat(s.rev()).as("the patch happened once or not at all").isIn(d.rev, d.rev + 1);
              if (kept) {
                assertThat(s.head().requestId()).isEqualTo(id);
                sent.add(new Sent(path, d.rev, d.hash, id, o, s.rev(), s.shortHash()));
                d.rev = s.rev();
                d.hash = s.shortHash();
                d.counter++;
              } else {
                assertThat(s.shortHash()).isEqualTo(before.shortHash());
              }
            }
          }
        }
        // Every document reads back as the model has it.
        for (Map.Entry<Integer, Doc> e : model.entrySet()) {
          DocSnapshot s = t.read("m/d" + e.getKey() + ".gram");
          assertThat(s.failure()).as("after %s", step).isNull();
          assertThat(s.rev()).as("rev of d%d after %s", e.getKey(), step).isEqualTo(e.getValue().rev);
          assertThat(s.shortHash()).isEqualTo(e.getValue().hash);
          String n = s.state().owner().first("n");
          assertThat(n == null ? 0 : Integer.parseInt(n)).isEqualTo(e.getValue().counter);
        }
      }
    } finally {
      t.close();
      dev.gram.testing.Trees.delete(top);
    }
  }

  private static void assertCode(Runnable call, String code) {
    try {
      call.run();
      throw new AssertionError("expected " + code);
    } catch (GramException e) {
      assertThat(e.code().name()).isEqualTo(code);
    }
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Kind> kinds = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, Arbitraries.just(Kind.CREATE)),
        net.jqwik.api.Tuple.of(8, Arbitraries.just(Kind.PATCH)),
        net.jqwik.api.Tuple.of(2, Arbitraries.just(Kind.STALE)),
        net.jqwik.api.Tuple.of(2, Arbitraries.just(Kind.REPLAY)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.REUSE)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.EDIT)),
        net.jqwik.api.Tuple.of(2, Arbitraries.just(Kind.REWIND)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.RESTART)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.CRASH)),
        net.jqwik.api.Tuple.of(2, Arbitraries.just(Kind.POWER_CUT)));
    return Combinators.combine(kinds, Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 1000))
        .as(Step::new).list().ofMinSize(5).ofMaxSize(40);
  }
}
