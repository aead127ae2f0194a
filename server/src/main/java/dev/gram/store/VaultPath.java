package dev.gram.store;

import java.nio.file.Path;

/**
 * A path an agent named, checked and normalized: relative, {@code /}-separated, inside the vault
 * or one of its mounts.
 *
 * @param path the normalized path as agents see it ({@code ""} is the vault root)
 * @param mount the mount it lies in, or {@code null} for the vault itself
 * @param file where it is on disk
 * @param document true when it names a {@code .gram} document, false for a folder
 */
public record VaultPath(String path, MountPoint mount, Path file, boolean document) {

  /** The root folder this path lives under. */
  public Path root() {
    return mount == null ? null : mount.root();
  }

  public boolean writable() {
    return mount == null || mount.writable();
  }

  /** The path inside its root (without the {@code @mounts/<id>/} prefix). */
  public String relative() {
    return mount == null ? path : path.substring(mount.key().length()).replaceFirst("^/", "");
  }

  /** The project folder (first segment inside its root), or {@code ""}. */
  public String project() {
    String rel = relative();
    int slash = rel.indexOf('/');
    if (slash < 0) {
      return document ? "" : rel;
    }
    return rel.substring(0, slash);
  }

  /** The folder this path is in ({@code ""} for the vault root). */
  public String parent() {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  /** A configured mount: {@code @mounts/<id>/}. */
  public record MountPoint(String id, Path root, boolean writable) {
    public String key() {
      return "@mounts/" + id;
    }
  }
}
