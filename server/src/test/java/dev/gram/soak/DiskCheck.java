package dev.gram.soak;

import dev.gram.edit.PatchOps;
import dev.gram.format.GramParser;
import dev.gram.format.Revision;
import dev.gram.store.DocSnapshot;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What survived a power cut, read from the backing folder while LazyFS is unmounted, the way the
 * next start reads it: the {@code .gram} files plus the write-ahead log, replayed in memory and
 * never written ({@link Vault.Durability#READ_ONLY}). Each file is also parsed alone, to tell the
 * acknowledged writes that were only in the log at the cut.
 */
final class DiskCheck {
  /**
   * @param lost acknowledged writes missing (request_id, or the path of a create), with what
   *     the document holds instead
   * @param duplicated request_ids in more than one revision
   * @param failing documents that do not load or verify, with why
   * @param onlyInLog acknowledged patches present only because the log holds them
   * @param unsettledPresent request_ids never acknowledged that are present (allowed, once)
   */
  record Result(int documents, List<String> lost, List<String> duplicated, List<String> failing, int onlyInLog,
      int unsettledPresent) {
    boolean clean() {
      return lost.isEmpty() && duplicated.isEmpty() && failing.isEmpty();
    }
  }

  private DiskCheck() {}

  static Result run(Path vaultDir, Ledger ledger) throws Exception {
    Vault vault = new Vault(new PathResolver(vaultDir, List.of()), new PatchOps(), Clock.systemUTC(), 2,
        Vault.Durability.READ_ONLY);
    vault.start().toCompletionStage().toCompletableFuture().get(300, TimeUnit.SECONDS);
    vault.scanned().toCompletionStage().toCompletableFuture().get(300, TimeUnit.SECONDS);
    try {
      return check(vault, vaultDir, ledger);
    } finally {
      vault.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
  }

  private static Result check(Vault vault, Path vaultDir, Ledger ledger) throws IOException {
    List<String> failing = new ArrayList<>();
    Map<String, Integer> copies = new HashMap<>();
    Map<String, String> where = new HashMap<>();
    Set<String> inLogOnly = new HashSet<>();
    List<DocSnapshot> documents = vault.documents();
    for (DocSnapshot s : documents) {
      if (s.failure() != null || s.history() == null) {
        failing.add(s.path() + ": " + s.failure());
        continue;
      }
      Set<String> inFile = requestIdsInFile(vaultDir.resolve(s.path()));
      for (Revision r : s.revisions()) {
        if (r.requestId() != null) {
          copies.merge(r.requestId(), 1, Integer::sum);
          where.put(r.requestId(), s.path());
          if (!inFile.contains(r.requestId())) {
            inLogOnly.add(r.requestId());
          }
        }
      }
    }
    List<String> lost = new ArrayList<>();
    int onlyInLog = 0;
    for (Ledger.Patch p : ledger.patches.values()) {
      DocSnapshot s = vault.peek(p.path());
      if (!copies.containsKey(p.requestId()) || !p.path().equals(where.get(p.requestId()))) {
        lost.add(p.requestId() + " (acknowledged as " + p.path() + " rev " + p.rev() + " in cut " + p.cut()
            + "; the document is " + (s == null ? "missing" : "at rev " + s.rev()
            + (s.rev() >= p.rev() && s.history() != null ? ", its rev " + p.rev() + " is request "
                + s.history().revision(p.rev()).requestId() : "")) + ")");
      } else if (s.state() == null || s.state().record(p.recordId()) == null) {
        lost.add(p.requestId() + " (in the history of " + p.path() + " but record " + p.recordId()
            + " is not in its state)");
      } else if (inLogOnly.contains(p.requestId())) {
        onlyInLog++;
      }
    }
    for (Ledger.Create c : ledger.creates.values()) {
      DocSnapshot s = vault.peek(c.path());
      if (s == null) {
        lost.add("create of " + c.path() + " (acknowledged in cut " + c.cut() + "; no such document)");
      } else if (c.recordId() != null && (s.state() == null || s.state().record(c.recordId()) == null)) {
        lost.add("create of " + c.path() + " (record " + c.recordId() + " missing)");
      }
    }
    List<String> duplicated = new ArrayList<>();
    copies.forEach((id, n) -> {
      if (n > 1) {
        duplicated.add(id + " ×" + n + " in " + where.get(id)
            + (ledger.patches.containsKey(id) ? " (acknowledged)" : " (never acknowledged)"));
      }
    });
    int unsettledPresent = (int) ledger.unsettled.stream().filter(copies::containsKey).count();
    return new Result(documents.size(), lost, duplicated, failing, onlyInLog, unsettledPresent);
  }

  /** The request_ids the file's own history holds, without the log. */
  private static Set<String> requestIdsInFile(Path file) throws IOException {
    Set<String> ids = new HashSet<>();
    if (!Files.isRegularFile(file)) {
      return ids;
    }
    if (GramParser.parse(new String(Files.readAllBytes(file), StandardCharsets.UTF_8)) instanceof GramParser.Success ok) {
      for (Revision r : ok.file().history()) {
        if (r.requestId() != null) {
          ids.add(r.requestId());
        }
      }
    }
    return ids;
  }
}
