package dev.gram.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which document paths name the same file. On the volumes macOS and Windows make by default,
 * {@code p/Notes.gram} and {@code p/notes.gram} are one file, and on macOS so are a name's composed
 * and decomposed Unicode forms; on Linux they are different files. The store keys its documents,
 * and the log's records of them, by {@link #key}, so that two spellings of one file are one
 * document with one history instead of two that each acknowledge writes on the same base.
 *
 * <p>Each root (the vault, each mount) is probed once at start: a hidden file is created in it and
 * looked up under its other spellings, then deleted. A root that cannot be written (a read-only
 * mount) is probed with the names already in it; one with none is taken to tell names apart, which
 * costs nothing there, since nothing can be created in it through the server.
 */
final class VaultNames {
  private static final Logger LOG = LoggerFactory.getLogger(VaultNames.class);

  /** What a volume ignores when it compares two names. */
  record Folding(boolean letterCase, boolean normalization) {
    static final Folding NONE = new Folding(false, false);

    String fold(String name) {
      String n = normalization ? Normalizer.normalize(name, Normalizer.Form.NFC) : name;
      return letterCase ? n.toLowerCase(Locale.ROOT) : n;
    }
  }

  /** How every probe's name starts: hidden, so the scan and the watcher skip it. */
  static final String PROBE_PREFIX = ".gram-names-Probe-";

  /**
   * A probe's name: holding a cased letter and a composed one, and this process's own, so that
   * cluster nodes starting together on one vault do not delete each other's probe.
   */
  static String probeName() {
    return PROBE_PREFIX + "\u00e9-" + ProcessHandle.current().pid() + "-"
        + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong());
  }

  private volatile Folding vault = Folding.NONE;
  private final Map<String, Folding> mounts = new ConcurrentHashMap<>();
  private volatile boolean folds;

  /** Whether any root ignores something in names: else every key is its path. */
  boolean folds() {
    return folds;
  }

  /** The key of a document path: equal for two paths exactly when they name one file. */
  String key(String path) {
    if (path.startsWith(PathResolver.MOUNTS + "/")) {
      int slash = path.indexOf('/', PathResolver.MOUNTS.length() + 1);
      if (slash > 0) {
        Folding f = mounts.get(path.substring(PathResolver.MOUNTS.length() + 1, slash));
        return f == null ? path : path.substring(0, slash) + f.fold(path.substring(slash));
      }
      return path;
    }
    return vault.fold(path);
  }

  /** Probes the vault's root and every mount's; call before the log is read or a document loaded. */
  void probe(PathResolver paths, boolean vaultWritable) {
    vault = probe(paths.vaultRoot(), vaultWritable);
    boolean any = !vault.equals(Folding.NONE);
    for (VaultPath.MountPoint m : paths.mounts()) {
      Folding f = probe(m.root(), vaultWritable && m.writable());
      mounts.put(m.id(), f);
      any |= !f.equals(Folding.NONE);
    }
    folds = any;
  }

  static Folding probe(Path root, boolean writable) {
    Folding f;
    try {
      f = writable ? withProbeFile(root) : withNamesIn(root);
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not learn whether {} tells names apart by case ({}); taking it that it does", root, e.toString());
      return Folding.NONE;
    }
    if (f.letterCase() || f.normalization()) {
      LOG.info("{} ignores {} in names: paths that differ only so name one document", root,
          f.letterCase() && f.normalization() ? "letter case and Unicode normalization"
              : f.letterCase() ? "letter case" : "Unicode normalization");
    }
    return f;
  }

  private static Folding withProbeFile(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      return Folding.NONE;
    }
    String name = probeName();
    Path probe = root.resolve(name);
    Files.createFile(probe);
    try {
      return new Folding(
          Files.exists(root.resolve(name.toUpperCase(Locale.ROOT)), LinkOption.NOFOLLOW_LINKS),
          Files.exists(root.resolve(Normalizer.normalize(name, Normalizer.Form.NFD)), LinkOption.NOFOLLOW_LINKS));
    } finally {
      Files.deleteIfExists(probe);
      deleteLeftoverProbes(root);
    }
  }

  /** Probes a crash left behind: any a minute old (a probe lives for microseconds). */
  private static void deleteLeftoverProbes(Path root) throws IOException {
    long minuteAgo = System.currentTimeMillis() - 60_000;
    try (DirectoryStream<Path> left = Files.newDirectoryStream(root, PROBE_PREFIX + "*")) {
      for (Path p : left) {
        if (Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis() < minuteAgo) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  private static Folding withNamesIn(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      return Folding.NONE;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
      for (Path e : entries) {
        String name = e.getFileName().toString();
        String other = swapCase(name);
        if (!other.equals(name)) {
          Path twin = root.resolve(other);
          return new Folding(Files.exists(twin, LinkOption.NOFOLLOW_LINKS) && Files.isSameFile(e, twin), false);
        }
      }
    }
    return Folding.NONE;
  }

  private static String swapCase(String name) {
    StringBuilder b = new StringBuilder(name.length());
    name.codePoints().forEach(c -> b.appendCodePoint(
        Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.isLowerCase(c) ? Character.toUpperCase(c) : c));
    return b.toString();
  }
}
