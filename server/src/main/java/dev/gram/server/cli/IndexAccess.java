package dev.gram.server.cli;

import dev.gram.edit.PatchOps;
import dev.gram.index.IndexStatus;
import dev.gram.index.RecallIndex;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;

/**
 * Every use the command line makes of the search index, in one place: {@code reindex} rebuilds
 * it and {@code status} reads what it holds, through {@link RecallIndex} and {@link IndexStatus}
 * (plus Lucene's write lock, to tell an index a running server holds). When the index package
 * changes shape, this class is what follows it.
 */
final class IndexAccess {
  /** What an index folder holds, read without a running server. */
  record Held(boolean exists, boolean inUse, int documents) {}

  /** What a rebuild did. */
  record Rebuilt(int indexed, int failed, long millis) {}

  private IndexAccess() {}

  /** True when another process (a running server) holds the index's write lock. */
  static boolean inUse(Path index) {
    if (!Files.isDirectory(index)) {
      return false;
    }
    try (Directory d = FSDirectory.open(index)) {
      d.obtainLock(IndexWriter.WRITE_LOCK_NAME).close();
      return false;
    } catch (LockObtainFailedException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Opens the index beside a vault that is not scanned, so nothing is re-indexed: the documents
   * it holds are those of its last run.
   */
  static Held read(Path vaultRoot, Path index) {
    if (!Files.isDirectory(index)) {
      return new Held(false, false, 0);
    }
    if (inUse(index)) {
      return new Held(true, true, 0);
    }
    Vault vault = new Vault(new PathResolver(vaultRoot, List.of()), new PatchOps(), Clock.systemUTC(), 1,
        Vault.Durability.READ_ONLY);
    RecallIndex ri = RecallIndex.open(vault, index, false);
    try {
      ri.awaitOpen();
      // Documents of an earlier run count as pending until a scan of the vault confirms them.
      IndexStatus.Stats s = ri.stats();
      return new Held(true, false, s.pendingFiles() + s.indexedFiles());
    } finally {
      ri.close();
      vault.close();
    }
  }

  /**
   * Whether semantic search works on this machine: loads the embedding model (up to 60 s) beside
   * an index in memory, so no index folder is touched; says {@code available} or why not.
   */
  static String semantic(Path vaultRoot) throws InterruptedException {
    Vault vault = new Vault(new PathResolver(vaultRoot, List.of()), new PatchOps(), Clock.systemUTC(), 1,
        Vault.Durability.READ_ONLY);
    RecallIndex ri = RecallIndex.open(vault, null, true);
    try {
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (loading(ri.semantic()) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      IndexStatus.Semantic s = ri.semantic();
      return s.available() ? "available" : "unavailable: " + s.reason();
    } finally {
      ri.close();
      vault.close();
    }
  }

  private static boolean loading(IndexStatus.Semantic s) {
    return !s.available() && s.reason() != null && s.reason().startsWith("EMBEDDING_LOADING");
  }

  /**
   * Empties the index folder and indexes every document of the vault again, calling {@code
   * progress} with (done, total) as it goes. Vectors are not computed here: the server embeds
   * what has none when it starts.
   */
  static Rebuilt rebuild(Path vaultRoot, Path index, int total, BiConsumer<Integer, Integer> progress)
      throws Exception {
    long t0 = System.nanoTime();
    deleteLuceneFiles(index);
    Vault vault = new Vault(new PathResolver(vaultRoot, List.of()), new PatchOps(), Clock.systemUTC(), 4,
        Vault.Durability.READ_ONLY);
    // The index draws its own progress line on a terminal; this command draws one with the total
    // known in advance, so the index's goes to a sink while it is created (it keeps that stream).
    PrintStream err = System.err;
    RecallIndex ri;
    System.setErr(new PrintStream(OutputStream.nullOutputStream()));
    try {
      ri = RecallIndex.open(vault, index, false);
      // Opened in the background: the sink must still be System.err when its progress is made.
      ri.awaitOpen();
    } finally {
      System.setErr(err);
    }
    try {
      ImportCommand.await(vault.start());
      while (true) {
        IndexStatus.Stats s = ri.stats();
        int done = s.indexedFiles() + s.failedFiles();
        progress.accept(Math.min(done, total), total);
        if (s.pendingFiles() == 0) {
          return new Rebuilt(s.indexedFiles(), s.failedFiles(), (System.nanoTime() - t0) / 1_000_000);
        }
        Thread.sleep(100);
      }
    } finally {
      ri.close();
      ImportCommand.await(vault.close());
    }
  }

  /** Removes Lucene's files only: a folder such as the repository's index/ keeps its README. */
  private static void deleteLuceneFiles(Path index) throws IOException {
    if (!Files.isDirectory(index)) {
      return;
    }
    try (Stream<Path> files = Files.list(index)) {
      for (Path f : files.toList()) {
        String n = f.getFileName().toString();
        if (Files.isRegularFile(f) && (n.startsWith("_") || n.startsWith("segments") || n.startsWith("pending_segments")
            || n.equals(IndexWriter.WRITE_LOCK_NAME))) {
          Files.delete(f);
        }
      }
    }
  }
}
