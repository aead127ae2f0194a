package dev.gram.store;

import dev.gram.base.GramException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The vault's start-up scan, on its I/O pool: finds the {@code .gram} files of the vault and its
 * mounts (skipping hidden folders and, at the vault's top, {@code @} folders), removes the
 * temporary files a crash left behind, starts the file watcher on the folders it walked, and loads
 * every document once, a few at a time. Completes {@code scanned} when all are loaded.
 */
final class VaultScan {
  private static final Logger LOG = LoggerFactory.getLogger(VaultScan.class);

  private VaultScan() {}

  /**
   * How the scan gives way to the agents: while a tool call of {@code foreground} is in flight,
   * lanes past the first {@code steadyLanes} wait until none is. Those first lanes never wait,
   * since a write waits for the whole scan.
   */
  record Pacing(dev.gram.async.Foreground foreground, int steadyLanes) {
    static final Pacing NONE = new Pacing(dev.gram.async.Foreground.none(), Integer.MAX_VALUE);

    boolean pauses(int lane) {
      return lane >= steadyLanes && foreground.inFlight() > 0;
    }
  }

  static void run(Vault vault, Promise<Void> scanned) {
    PathResolver paths = vault.paths();
    try {
      Files.createDirectories(paths.vaultRoot());
      List<Path> roots = new ArrayList<>();
      List<VaultPath.MountPoint> owners = new ArrayList<>();
      roots.add(paths.vaultRoot());
      owners.add(null);
      for (VaultPath.MountPoint m : paths.mounts()) {
        roots.add(m.root());
        owners.add(m);
      }
      List<Path> dirs = new ArrayList<>();
      List<VaultPath> found = new ArrayList<>();
      for (int i = 0; i < roots.size(); i++) {
        VaultPath.MountPoint mount = owners.get(i);
        Path root = roots.get(i);
        if (!Files.isDirectory(root)) {
          LOG.warn("mount {} has no folder {}", mount == null ? "vault" : mount.id(), root);
          continue;
        }
        for (Path file : findDocuments(root, mount == null, dirs)) {
          String path = paths.pathOf(mount, file);
          VaultPath vp;
          try {
            vp = paths.document(path);
          } catch (GramException e) {
            continue;
          }
          found.add(vp);
        }
      }
      // The total is known before loading starts: one honest line instead of a count that grows.
      LOG.info("vault {}: loading {} documents", paths.vaultRoot(), found.size());
      vault.watch(dirs);
      Promise<Void> loaded = Promise.promise();
      AtomicInteger next = new AtomicInteger();
      Lanes lanes = new Lanes(new AtomicInteger(SCAN_LANES), loaded);
      Pacing pacing = vault.scanPacing();
      for (int i = 0; i < SCAN_LANES; i++) {
        loadLane(vault, pacing, i, found, next, lanes);
      }
      loaded.future()
          .onComplete(
              ar -> {
                vault.replayLeftovers().onComplete(x -> {
                  LOG.info("vault {}: {} documents", paths.vaultRoot(), vault.documents().size());
                  scanned.tryComplete();
                });
              });
    } catch (IOException | RuntimeException e) {
      LOG.error("vault scan failed: {}", e.toString());
      scanned.tryFail(e);
    }
  }

  /**
   * How many documents the start-up scan loads at once: one per core. Loading is CPU work
   * (parse, verify the chain); handing ten thousand loads to the whole I/O pool at once made
   * sixteen threads fight two cores, and the transports, which answer while the vault loads,
   * waited their turn behind them.
   */
  private static final int SCAN_LANES = Math.max(1, Runtime.getRuntime().availableProcessors());

  /**
   * The lanes loading now. The documents are all loaded once every one was handed out and no lane
   * is loading: a lane paused for the agents has no load in flight, and the first lanes never
   * pause, so the count cannot reach zero while documents are left.
   */
  private record Lanes(AtomicInteger busy, Promise<Void> loaded) {
    void stopped() {
      if (busy.decrementAndGet() == 0) {
        loaded.tryComplete();
      }
    }

    void resumed() {
      busy.incrementAndGet();
    }
  }

  /**
   * Loads the documents of {@code docs} from {@code next} on, one after another; lane {@code
   * lane} pauses between two documents while {@code pacing} says so.
   */
  private static void loadLane(
      Vault vault, Pacing pacing, int lane, List<VaultPath> docs, AtomicInteger next, Lanes lanes) {
    while (true) {
      if (pacing.pauses(lane) && next.get() < docs.size()) {
        lanes.stopped();
        // Resumed on the I/O pool once no call is in flight, never on the thread that ended it.
        pacing.foreground().whenIdle(() -> {
          lanes.resumed();
          try {
            vault.io().execute(() -> loadLane(vault, pacing, lane, docs, next, lanes));
          } catch (java.util.concurrent.RejectedExecutionException closing) {
            lanes.stopped(); // the vault is closing: the scan ends with it
          }
        });
        return;
      }
      int i = next.getAndIncrement();
      if (i >= docs.size()) {
        lanes.stopped();
        return;
      }
      Future<DocSnapshot> load = vault.actor(docs.get(i)).snapshot();
      // A document a reader already loaded is complete at once: the loop goes on, no recursion.
      if (!load.isComplete()) {
        load.onComplete(ar -> loadLane(vault, pacing, lane, docs, next, lanes));
        return;
      }
    }
  }

  /** The {@code .gram} files under a root; removes temporary files left by a crash. */
  private static List<Path> findDocuments(Path root, boolean isVaultRoot, List<Path> dirs) throws IOException {
    List<Path> found = new ArrayList<>();
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
            if (!dir.equals(root)
                && (name.startsWith(".") || (isVaultRoot && dir.getParent().equals(root) && name.startsWith("@")))) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            dirs.add(dir);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (DurableFiles.isTemporary(file)) {
              try {
                Files.deleteIfExists(file);
                LOG.info("removed leftover temporary file {}", file);
              } catch (IOException e) {
                LOG.warn("could not remove {}: {}", file, e.getMessage());
              }
            } else if (attrs.isRegularFile()
                && file.getFileName().toString().endsWith(".gram")
                && !file.getFileName().toString().startsWith(".")) {
              found.add(file);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException exc) {
            LOG.warn("cannot read {}: {}", file, exc.getMessage());
            return FileVisitResult.CONTINUE;
          }
        });
    return found;
  }
}
