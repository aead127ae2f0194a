package dev.gram.testing.disk;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.util.Iterator;
import java.util.Set;

/**
 * A folder listing on the simulated disk. Where the platform opens folders by handle ({@code
 * openat}, as the store's {@code SafeFolder} does), the secure variant models what is done
 * through the handle under the folder's path at opening: the tests do not move folders.
 */
class DiskDirectoryStream implements DirectoryStream<Path> {
  final DiskFileSystem fs;
  final Path dir;
  final DirectoryStream<Path> real;

  DiskDirectoryStream(DiskFileSystem fs, Path dir, DirectoryStream<Path> real) {
    this.fs = fs;
    this.dir = dir;
    this.real = real;
  }

  static DiskDirectoryStream of(DiskFileSystem fs, Path dir, DirectoryStream<Path> real) {
    return real instanceof SecureDirectoryStream<Path> s ? new Secure(fs, dir, s) : new DiskDirectoryStream(fs, dir, real);
  }

  @Override
  public Iterator<Path> iterator() {
    return fs.wrap(real.iterator());
  }


  @Override
  public void close() throws IOException {
    real.close();
  }

  static final class Secure extends DiskDirectoryStream implements SecureDirectoryStream<Path> {
    private final SecureDirectoryStream<Path> handle;

    Secure(DiskFileSystem fs, Path dir, SecureDirectoryStream<Path> handle) {
      super(fs, dir, handle);
      this.handle = handle;
    }

    private SimulatedDisk disk() {
      return fs.disk();
    }

    /** A name relative to this folder, spelled as the folder spells it when the disk folds names. */
    private Path rel(Path path) {
      Path r = DiskPath.unwrap(path);
      return r.isAbsolute() ? disk().spelled(r) : dir.relativize(disk().spelled(dir.resolve(r)));
    }

    @Override
    public SecureDirectoryStream<Path> newDirectoryStream(Path path, LinkOption... options) throws IOException {
      fs.checkAlive();
      Path rel = rel(path);
      return new Secure(fs, dir.resolve(rel), handle.newDirectoryStream(rel, options));
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
        throws IOException {
      Path rel = rel(path);
      return DiskProvider.open(fs, dir.resolve(rel), options, () -> {
        SeekableByteChannel ch = handle.newByteChannel(rel, options, attrs);
        if (ch instanceof FileChannel fc) {
          return fc;
        }
        ch.close();
        throw new UnsupportedOperationException("no file channel through a folder handle");
      });
    }

    @Override
    public void deleteFile(Path path) throws IOException {
      Path rel = rel(path);
      disk().unlink(fs, dir.resolve(rel), () -> {
        handle.deleteFile(rel);
        return null;
      });
    }

    @Override
    public void deleteDirectory(Path path) throws IOException {
      Path rel = rel(path);
      disk().unlink(fs, dir.resolve(rel), () -> {
        handle.deleteDirectory(rel);
        return null;
      });
    }

    @Override
    public void move(Path srcpath, SecureDirectoryStream<Path> targetdir, Path targetpath) throws IOException {
      Secure target = (Secure) targetdir;
      Path from = rel(srcpath);
      Path to = target.rel(targetpath);
      disk().rename(fs, dir.resolve(from), target.dir.resolve(to), () -> {
        handle.move(from, target.handle, to);
        return null;
      });
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Class<V> type) {
      return handle.getFileAttributeView(type);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
      return handle.getFileAttributeView(rel(path), type, options);
    }
  }
}
