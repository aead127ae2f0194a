package dev.gram.store;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the paths agents send into {@link VaultPath}s, rejecting with the contract's exact
 * messages everything that could reach outside the vault:
 *
 * <ul>
 *   <li>absolute paths ({@code /x}, {@code C:/x}, {@code ~/x}): {@value #ABSOLUTE};
 *   <li>{@code ..} segments, and symbolic links that lead outside the root: {@value #OUTSIDE};
 *   <li>hidden segments ({@code .x}), empty segments, backslashes, NUL and other control
 *       characters, and names that only look safe ({@link NameRules}): {@value #HIDDEN}, with
 *       the reason in {@code details};
 *   <li>an {@code @} path that is not a configured {@code @mounts/<id>}: {@value #NOT_MOUNTED};
 *   <li>a write under a mount deeper than its project folders: {@value #MOUNT_DEPTH};
 *   <li>a write under a read-only mount: {@code E_READ_ONLY} {@value #READ_ONLY}.
 * </ul>
 *
 * <p>Syntax checks are pure and run anywhere; {@link #checkLinks} touches the file system and runs
 * on a worker.
 */
public final class PathResolver {
  public static final String ABSOLUTE = "Absolute paths are outside the approved folder";
  public static final String NOT_MOUNTED = "Path does not start with a mounted collection";
  public static final String OUTSIDE = "Path is outside the approved folders";
  public static final String HIDDEN = "Path is outside an approved folder or hidden";
  public static final String MOUNT_DEPTH = "Vault mounts support writes only to top-level documents";
  public static final String READ_ONLY = "This mounted folder is read-only to agents";

  public static final String MOUNTS = "@mounts";

  /** A Windows drive prefix ({@code C:}); compiled once, every tool call resolves a path. */
  private static final java.util.regex.Pattern DRIVE = java.util.regex.Pattern.compile("[A-Za-z]:");

  private final Path vaultRoot;
  private final Map<String, VaultPath.MountPoint> mounts;
  /** The spelling the vault knows a document path by ({@link VaultNames}); none until a vault opens. */
  private volatile java.util.function.UnaryOperator<String> spelling = java.util.function.UnaryOperator.identity();

  public PathResolver(Path vaultRoot, List<VaultPath.MountPoint> mounts) {
    this.vaultRoot = vaultRoot.toAbsolutePath().normalize();
    Map<String, VaultPath.MountPoint> m = new LinkedHashMap<>();
    for (VaultPath.MountPoint mp : mounts) {
      m.put(mp.id(), new VaultPath.MountPoint(mp.id(), mp.root().toAbsolutePath().normalize(), mp.writable()));
    }
    this.mounts = Map.copyOf(m);
  }

  public Path vaultRoot() {
    return vaultRoot;
  }

  public List<VaultPath.MountPoint> mounts() {
    return List.copyOf(new LinkedHashMap<>(mounts).values());
  }

  public VaultPath.MountPoint mount(String id) {
    return mounts.get(id);
  }

  /**
   * Resolves a document path to the spelling the vault knows its file by: on a volume that ignores
   * letter case or Unicode normalization, every layer then sees one path for one document.
   */
  void spellDocumentsAs(java.util.function.UnaryOperator<String> known) {
    spelling = known;
  }

  /** A path that must name a {@code .gram} document. */
  public VaultPath document(String raw) {
    VaultPath p = resolve(raw);
    if (!p.document() || (raw != null && raw.endsWith("/"))) {
      throw new GramException(ErrorCode.E_ARGUMENT, "path must name a .gram document: " + raw);
    }
    return p;
  }

  /** A path that must name a folder ({@code ""} or {@code null} is the vault root). */
  public VaultPath folder(String raw) {
    VaultPath p = resolve(raw == null ? "" : raw);
    if (p.document()) {
      throw new GramException(ErrorCode.E_ARGUMENT, "folder must name a folder, not a document: " + raw);
    }
    return p;
  }

  /** A document path that a write may target. */
  public VaultPath writableDocument(String raw) {
    VaultPath p = document(raw);
    if (p.mount() != null) {
      if (!p.mount().writable()) {
        throw new GramException(ErrorCode.E_READ_ONLY, READ_ONLY);
      }
      if (p.relative().split("/").length > 2) {
        throw new GramException(ErrorCode.E_PATH, MOUNT_DEPTH);
      }
    }
    return p;
  }

  public VaultPath resolve(String raw) {
    if (raw == null) {
      raw = "";
    }
    if (raw.startsWith("/") || raw.startsWith("~") || DRIVE.matcher(raw).lookingAt() || raw.startsWith("\\\\")) {
      throw new GramException(ErrorCode.E_PATH, ABSOLUTE);
    }
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c < 0x20 || c == 0x7f || c == '\\') {
        throw new GramException(ErrorCode.E_PATH, HIDDEN);
      }
    }
    String path = raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw;
    if (path.isEmpty()) {
      return new VaultPath("", null, vaultRoot, false);
    }
    String[] segments = path.split("/", -1);
    for (String s : segments) {
      if (s.equals("..")) {
        throw new GramException(ErrorCode.E_PATH, OUTSIDE);
      }
    }
    for (String s : segments) {
      if (s.isEmpty() || s.startsWith(".")) {
        throw new GramException(ErrorCode.E_PATH, HIDDEN);
      }
      String lookalike = NameRules.problem(s);
      if (lookalike != null) {
        throw new GramException(ErrorCode.E_PATH, HIDDEN, new io.vertx.core.json.JsonObject().put("segment", s).put("reason", lookalike));
      }
    }
    if (raw.length() > NameRules.MAX_PATH_CHARS) {
      throw new GramException(ErrorCode.E_PATH, HIDDEN,
          new io.vertx.core.json.JsonObject().put("reason", "the path is longer than " + NameRules.MAX_PATH_CHARS + " characters"));
    }
    if (path.endsWith(".gram")) {
      String known = spelling.apply(path);
      if (!known.equals(path)) {
        path = known;
        segments = path.split("/", -1);
      }
    }
    VaultPath.MountPoint mount = null;
    Path root = vaultRoot;
    int first = 0;
    if (segments[0].startsWith("@")) {
      if (!segments[0].equals(MOUNTS) || segments.length < 2 || !mounts.containsKey(segments[1])) {
        throw new GramException(ErrorCode.E_PATH, NOT_MOUNTED);
      }
      mount = mounts.get(segments[1]);
      root = mount.root();
      first = 2;
    }
    Path file = root;
    for (int i = first; i < segments.length; i++) {
      file = file.resolve(segments[i]);
    }
    boolean document = path.endsWith(".gram") && segments.length > first;
    return new VaultPath(path, mount, file.normalize(), document);
  }

  /**
   * Rejects a path whose existing part leads, through a symbolic link, outside its root. Runs on a
   * worker thread: it reads the file system. Only a link that escapes (or dangles) is the
   * caller's fault ({@code E_PATH}); a file system that cannot answer (gone, I/O error) is
   * {@code E_STORAGE}, so that an agent retries later instead of believing its path is wrong.
   */
  public void checkLinks(VaultPath p) {
    Path root = p.mount() == null ? vaultRoot : p.mount().root();
    try {
      Path realRoot = Files.exists(root) ? root.toRealPath() : root;
      Path probe = p.file();
      BasicFileAttributes seen = null;
      while (probe != null && (seen = attributesOrNull(probe)) == null) {
        probe = probe.getParent();
      }
      if (probe == null) {
        return;
      }
      Path real;
      try {
        real = probe.toRealPath();
      } catch (NoSuchFileException e) {
        if (seen.isSymbolicLink()) {
          // A dangling symbolic link: writing through it could create a file anywhere.
          throw new GramException(ErrorCode.E_PATH, OUTSIDE);
        }
        throw e;
      }
      if (!real.startsWith(realRoot)) {
        throw new GramException(ErrorCode.E_PATH, OUTSIDE);
      }
    } catch (java.nio.file.FileSystemException e) {
      if (e.getReason() != null && e.getReason().contains("symbolic links")) {
        // ELOOP: links that lead round in a circle lead nowhere inside the vault either.
        throw new GramException(ErrorCode.E_PATH, OUTSIDE);
      }
      throw StoreErrors.storageFailure(e);
    } catch (IOException e) {
      throw StoreErrors.storageFailure(e);
    }
  }

  /** The file's own attributes (a link's, not its target's), or null when nothing is there. */
  private static BasicFileAttributes attributesOrNull(Path file) throws IOException {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
      return null;
    }
  }

  /** The agent-visible path of a file under a root (inverse of {@link #resolve}). */
  public String pathOf(VaultPath.MountPoint mount, Path file) {
    Path root = mount == null ? vaultRoot : mount.root();
    String rel = root.relativize(file).toString().replace('\\', '/');
    return mount == null ? rel : mount.key() + "/" + rel;
  }
}
