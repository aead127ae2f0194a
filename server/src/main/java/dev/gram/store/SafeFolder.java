package dev.gram.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A folder inside a trusted root, opened component by component without following symbolic
 * links, so that files created, renamed and deleted through it stay in that folder even if
 * another program swaps a folder of the path for a link while we write (a check of the path
 * followed by a write by name would follow the new link out of the vault).
 *
 * <p>Uses the JDK's {@link SecureDirectoryStream} ({@code openat}, {@code renameat} and {@code
 * unlinkat} relative to an open folder). Where the platform has none, it falls back to names, as
 * before, and says so once.
 */
final class SafeFolder implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SafeFolder.class);
  private static volatile boolean warned;

  /** A folder of the path is a symbolic link (or stopped being a folder) since it was checked. */
  static final class LinkedFolderException extends IOException {
    LinkedFolderException(Path folder, String why) {
      super(folder + " is no longer a folder of the vault (" + why + ")");
    }
  }

  private final Path path;
  private final SecureDirectoryStream<Path> handle;

  private SafeFolder(Path path, SecureDirectoryStream<Path> handle) {
    this.path = path;
    this.handle = handle;
  }

  /** Opens {@code folder}, which must lie under {@code root}; no component below the root may be a link. */
  static SafeFolder open(Path root, Path folder) throws IOException {
    Path rel = root.relativize(folder);
    DirectoryStream<Path> ds = Files.newDirectoryStream(root);
    if (!(ds instanceof SecureDirectoryStream<Path> sds)) {
      ds.close();
      if (!warned) {
        warned = true;
        LOG.warn("this platform cannot open folders without following links; writes go by name");
      }
      return new SafeFolder(folder, null);
    }
    SecureDirectoryStream<Path> at = sds;
    try {
      for (Path component : rel) {
        if (component.toString().isEmpty()) {
          continue;
        }
        SecureDirectoryStream<Path> next;
        try {
          next = at.newDirectoryStream(component, LinkOption.NOFOLLOW_LINKS);
        } catch (NotDirectoryException e) {
          throw new LinkedFolderException(folder, "a link or a file in its place");
        } catch (NoSuchFileException e) {
          throw e;
        } catch (FileSystemException e) {
          throw new LinkedFolderException(folder, e.getReason() == null ? "a link in its place" : e.getReason());
        }
        at.close();
        at = next;
      }
      return new SafeFolder(folder, at);
    } catch (IOException | RuntimeException e) {
      at.close();
      throw e;
    }
  }

  /** A folder trusted by name (the server's own, such as the log's): no handle. */
  static SafeFolder byName(Path folder) {
    return new SafeFolder(folder, null);
  }

  Path path() {
    return path;
  }

  /** Creates a new file here (never through a link) for writing. */
  FileChannel createNew(String name) throws IOException {
    if (handle == null) {
      return FileChannel.open(path.resolve(name), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }
    SeekableByteChannel ch = handle.newByteChannel(Path.of(name),
        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
    if (ch instanceof FileChannel fc) {
      return fc;
    }
    ch.close();
    throw new IOException("no file channel for " + path.resolve(name));
  }

  /** Renames {@code from} over {@code to}, both in this folder. */
  void rename(String from, String to) throws IOException {
    if (handle == null) {
      Files.move(path.resolve(from), path.resolve(to), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      return;
    }
    handle.move(Path.of(from), handle, Path.of(to));
  }

  /** Whether something (a link included) has this name here. */
  boolean exists(String name) throws IOException {
    if (handle == null) {
      return Files.exists(path.resolve(name), LinkOption.NOFOLLOW_LINKS);
    }
    try {
      handle.getFileAttributeView(Path.of(name), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .readAttributes();
      return true;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  void deleteIfExists(String name) {
    try {
      if (handle == null) {
        Files.deleteIfExists(path.resolve(name));
      } else {
        handle.deleteFile(Path.of(name));
      }
    } catch (NoSuchFileException e) {
      // gone already
    } catch (IOException e) {
      LOG.warn("could not remove {}: {}", path.resolve(name), e.toString());
    }
  }

  @Override
  public void close() throws IOException {
    if (handle != null) {
      handle.close();
    }
  }
}
