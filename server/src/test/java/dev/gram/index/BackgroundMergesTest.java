package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.async.Background;
import dev.gram.async.Foreground;
import java.util.Arrays;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/** A merge waits while an agent's call is in flight, and runs once the agents pause. */
class BackgroundMergesTest {

  @Test
  void aMergeStartsOnlyOnceNoCallIsInFlight() throws Exception {
    Foreground agents = new Foreground();
    agents.started(); // an agent's call, in flight until ended() below
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig()
            .setMergeScheduler(new BackgroundMerges(new Background(1, agents), 60_000)))) {
      for (int segment = 0; segment < 3; segment++) {
        Document d = new Document();
        d.add(new TextField("text", "word" + segment, Field.Store.NO));
        w.addDocument(d);
        w.flush();
      }
      w.forceMerge(1, false);
      // The merge thread is seen parked in the wait before the merge: the merge has not begun.
      Thread merging = awaitThreadWaitingInForeground();
      assertThat(merging).as("a merge thread waiting for the agents to pause").isNotNull();
      try (DirectoryReader r = DirectoryReader.open(w)) {
        assertThat(r.leaves()).hasSize(3);
      }
      agents.ended();
      w.forceMerge(1, true);
      try (DirectoryReader r = DirectoryReader.open(w)) {
        assertThat(r.leaves()).hasSize(1);
        assertThat(r.numDocs()).isEqualTo(3);
      }
    }
  }

  /** The thread blocked in {@link Foreground#awaitQuiet}, or null if none shows up within 10 s. */
  private static Thread awaitThreadWaitingInForeground() throws InterruptedException {
    long end = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < end) {
      for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
        boolean inWait = Arrays.stream(t.getValue()).anyMatch(
            f -> f.getClassName().equals(Foreground.class.getName()) && f.getMethodName().equals("awaitQuiet"));
        boolean inMerge = Arrays.stream(t.getValue()).anyMatch(
            f -> f.getClassName().equals(BackgroundMerges.class.getName()) && f.getMethodName().equals("doMerge"));
        if (inWait && inMerge && t.getKey().getState() == Thread.State.TIMED_WAITING) {
          return t.getKey();
        }
      }
      Thread.sleep(5);
    }
    return null;
  }
}
