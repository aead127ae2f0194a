package dev.gram.store;

import dev.gram.base.GramException;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices documents that other programs (an editor, a git checkout) create, change or delete, and
 * asks their actors to read them again. Our own commits show up here too; the actor compares the
 * file's fingerprint and does nothing when the file is the one it wrote.
 *
 * <p>Watching is a help, not the guarantee: every write checks the file's fingerprint itself
 * before it commits.
 */
final class VaultWatcher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(VaultWatcher.class);

  private final Vault vault;
  private final WatchService service;
  private final Map<WatchKey, Path> dirs = new ConcurrentHashMap<>();
  private final Thread thread;

  private VaultWatcher(Vault vault, WatchService service) {
    this.vault = vault;
    this.service = service;
    this.thread = StoreThreads.watcher(this::run);
  }

  static VaultWatcher start(Vault vault, List<Path> initialDirs) {
    try {
      VaultWatcher w = new VaultWatcher(vault, FileSystems.getDefault().newWatchService());
      for (Path d : initialDirs) {
        w.register(d);
      }
      w.thread.start();
      return w;
    } catch (IOException e) {
      LOG.warn("file watching is off: {}", e.getMessage());
      return null;
    }
  }

  private void register(Path dir) {
    try {
      WatchKey key =
          dir.register(
              service,
              StandardWatchEventKinds.ENTRY_CREATE,
              StandardWatchEventKinds.ENTRY_MODIFY,
              StandardWatchEventKinds.ENTRY_DELETE);
      dirs.put(key, dir);
    } catch (IOException e) {
      LOG.debug("cannot watch {}: {}", dir, e.getMessage());
    }
  }

  private void run() {
    while (true) {
      WatchKey key;
      try {
        key = service.take();
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return;
      }
      Path dir = dirs.get(key);
      try {
        handle(key, dir);
      } catch (RuntimeException e) {
        // One odd event (a file gone before we looked) must not end watching for the vault.
        LOG.debug("watch event failed: {}", e.toString());
      }
      if (!key.reset()) {
        dirs.remove(key);
      }
    }
  }

  private void handle(WatchKey key, Path dir) {
    for (WatchEvent<?> event : key.pollEvents()) {
      if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
        for (DocSnapshot s : vault.documents()) {
          vault.refresh(s.location());
        }
        continue;
      }
      if (dir == null) {
        continue;
      }
      Path child = dir.resolve((Path) event.context());
      String name = child.getFileName().toString();
      if (name.startsWith(".")) {
        continue;
      }
      if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE && Files.isDirectory(child)) {
        registerTree(child);
        continue;
      }
      if (name.endsWith(".gram")) {
        changed(child);
      }
    }
  }

  /**
   * Watches a folder that appeared (a new project, a checkout) and everything already in it.
   * Files may vanish while it is walked (another writer's temporary files): those are skipped,
   * and the walk must never end the watcher thread.
   */
  private void registerTree(Path dir) {
    try {
      Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
        @Override
        public java.nio.file.FileVisitResult preVisitDirectory(Path d, java.nio.file.attribute.BasicFileAttributes attrs) {
          if (!d.equals(dir) && d.getFileName().toString().startsWith(".")) {
            return java.nio.file.FileVisitResult.SKIP_SUBTREE;
          }
          register(d);
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes attrs) {
          String name = f.getFileName().toString();
          if (name.endsWith(".gram") && !name.startsWith(".")) {
            changed(f);
          }
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException e) {
          return java.nio.file.FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException | RuntimeException e) {
      LOG.debug("cannot watch {}: {}", dir, e.getMessage());
    }
  }

  private void changed(Path file) {
    PathResolver paths = vault.paths();
    VaultPath.MountPoint owner = null;
    for (VaultPath.MountPoint m : paths.mounts()) {
      if (file.startsWith(m.root())) {
        owner = m;
      }
    }
    try {
      vault.refresh(paths.document(paths.pathOf(owner, file)));
    } catch (GramException e) {
      // Not a path agents can name (hidden, reserved): not a document.
    }
  }

  @Override
  public void close() {
    try {
      service.close();
    } catch (IOException e) {
      LOG.debug("closing the watcher: {}", e.getMessage());
    }
    thread.interrupt();
  }
}
