package dev.gram.testing.disk;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import java.util.Set;

/**
 * Every file operation on a simulated disk: reads pass to the real files (failing once the power
 * is cut), changes are counted and modelled by {@link SimulatedDisk} before they reach them.
 */
final class DiskProvider extends FileSystemProvider {
  static final FileSystemProvider REAL = FileSystems.getDefault().provider();
  private final DiskFileSystem fs;

  DiskProvider(DiskFileSystem fs) {
    this.fs = fs;
  }

  private SimulatedDisk disk() {
    return fs.disk();
  }

  /** The real file a path names: spelled as the disk's folders spell it when the disk folds names. */
  private Path real(Path p) {
    return disk().spelled(DiskPath.unwrap(p));
  }

  @Override
  public String getScheme() {
    return "simulated-disk";
  }

  @Override
  public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
    throw new UnsupportedOperationException();
  }

  @Override
  public FileSystem getFileSystem(URI uri) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Path getPath(URI uri) {
    throw new UnsupportedOperationException();
  }

  @Override
  public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
      throws IOException {
    return newFileChannel(path, options, attrs);
  }

  @Override
  public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
      throws IOException {
    Path r = real(path);
    return open(fs, r, options, () -> REAL.newFileChannel(r, options, attrs));
  }

  static FileChannel open(DiskFileSystem fs, Path r, Set<? extends OpenOption> options,
      SimulatedDisk.IoAction<FileChannel> open) throws IOException {
    boolean append = options.contains(StandardOpenOption.APPEND);
    boolean write = append || options.contains(StandardOpenOption.WRITE);
    if (!write) {
      fs.disk().beforeRead(r);
    }
    return fs.disk().open(fs, r, write, options.contains(StandardOpenOption.CREATE),
        options.contains(StandardOpenOption.CREATE_NEW), options.contains(StandardOpenOption.TRUNCATE_EXISTING),
        append, open);
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
      throws IOException {
    fs.checkAlive();
    Path r = real(dir);
    fs.disk().beforeRead(r);
    DirectoryStream<Path> s = REAL.newDirectoryStream(r, p -> filter.accept(fs.wrap(p)));
    return DiskDirectoryStream.of(fs, r, s);
  }

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    Path r = real(dir);
    disk().mkdir(fs, r, () -> {
      REAL.createDirectory(r, attrs);
      return null;
    });
  }

  @Override
  public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) throws IOException {
    Path r = real(link);
    Path t = real(target);
    disk().symlink(fs, r, t, () -> {
      REAL.createSymbolicLink(r, t, attrs);
      return null;
    });
  }

  @Override
  public void createLink(Path link, Path existing) throws IOException {
    Path r = real(link);
    Path e = real(existing);
    disk().link(fs, r, e, () -> {
      REAL.createLink(r, e);
      return null;
    });
  }

  @Override
  public void delete(Path path) throws IOException {
    Path r = real(path);
    disk().unlink(fs, r, () -> {
      REAL.delete(r);
      return null;
    });
  }

  @Override
  public Path readSymbolicLink(Path link) throws IOException {
    fs.checkAlive();
    return fs.wrap(REAL.readSymbolicLink(real(link)));
  }

  @Override
  public void copy(Path source, Path target, CopyOption... options) throws IOException {
    Path s = real(source);
    Path t = real(target);
    disk().copy(fs, t, () -> {
      REAL.copy(s, t, options);
      return null;
    });
  }

  @Override
  public void move(Path source, Path target, CopyOption... options) throws IOException {
    Path s = real(source);
    Path t = real(target);
    disk().rename(fs, s, t, () -> {
      REAL.move(s, t, options);
      return null;
    });
  }

  @Override
  public boolean isSameFile(Path path, Path path2) throws IOException {
    fs.checkAlive();
    return REAL.isSameFile(real(path), real(path2));
  }

  @Override
  public boolean isHidden(Path path) throws IOException {
    return REAL.isHidden(real(path));
  }

  @Override
  public FileStore getFileStore(Path path) throws IOException {
    return REAL.getFileStore(real(path));
  }

  @Override
  public void checkAccess(Path path, AccessMode... modes) throws IOException {
    fs.checkAlive();
    REAL.checkAccess(real(path), modes);
  }

  @Override
  public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
    return REAL.getFileAttributeView(real(path), type, options);
  }

  @Override
  public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
      throws IOException {
    fs.checkAlive();
    return REAL.readAttributes(real(path), type, options);
  }

  @Override
  public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
    fs.checkAlive();
    return REAL.readAttributes(real(path), attributes, options);
  }

  @Override
  public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
    fs.checkAlive();
    REAL.setAttribute(real(path), attribute, value, options);
  }
}
