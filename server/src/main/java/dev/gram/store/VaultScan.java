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
      AtomicInteger lanesLeft = new AtomicInteger(SCAN_LANES);
      for (int i = 0; i < SCAN_LANES; i++) {
        loadLane(vault, found, next, () -> {
          if (lanesLeft.decrementAndGet() == 0) {
            loaded.complete();
          }
        });
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

  /** Loads the documents of {@code docs} from {@code next} on, one after another, then runs {@code done}. */
  private static void loadLane(Vault vault, List<VaultPath> docs, AtomicInteger next, Runnable done) {
    while (true) {
      int i = next.getAndIncrement();
      if (i >= docs.size()) {
        done.run();
        return;
      }
      Future<DocSnapshot> load = vault.actor(docs.get(i)).snapshot();
      // A document a reader already loaded is complete at once: the loop goes on, no recursion.
      if (!load.isComplete()) {
        load.onComplete(ar -> loadLane(vault, docs, next, done));
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
