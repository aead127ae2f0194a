package dev.gram.testing.disk;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The file system of one simulated disk: the default one, with every path and operation passing through the disk. */
final class DiskFileSystem extends FileSystem {
  private static final FileSystem REAL = FileSystems.getDefault();
  private final SimulatedDisk disk;
  private final DiskProvider provider;
  /** Which process this is (a killed process keeps its file system, and every operation fails). */
  final int process;

  DiskFileSystem(SimulatedDisk disk, int process) {
    this.disk = disk;
    this.process = process;
    this.provider = new DiskProvider(this);
  }

  void checkAlive() throws IOException {
    disk.checkAlive(this);
  }

  SimulatedDisk disk() {
    return disk;
  }

  Path wrap(Path real) {
    return new DiskPath(this, real);
  }

  @Override
  public FileSystemProvider provider() {
    return provider;
  }

  @Override
  public void close() {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public boolean isReadOnly() {
    return false;
  }

  @Override
  public String getSeparator() {
    return REAL.getSeparator();
  }

  @Override
  public Iterable<Path> getRootDirectories() {
    List<Path> out = new ArrayList<>();
    for (Path p : REAL.getRootDirectories()) {
      out.add(wrap(p));
    }
    return out;
  }

  @Override
  public Iterable<FileStore> getFileStores() {
    return REAL.getFileStores();
  }

  @Override
  public Set<String> supportedFileAttributeViews() {
    return REAL.supportedFileAttributeViews();
  }

  @Override
  public Path getPath(String first, String... more) {
    return wrap(REAL.getPath(first, more));
  }

  @Override
  public PathMatcher getPathMatcher(String syntaxAndPattern) {
    PathMatcher m = REAL.getPathMatcher(syntaxAndPattern);
    return p -> m.matches(DiskPath.unwrap(p));
  }

  @Override
  public UserPrincipalLookupService getUserPrincipalLookupService() {
    return REAL.getUserPrincipalLookupService();
  }

  @Override
  public WatchService newWatchService() throws IOException {
    return REAL.newWatchService();
  }
}
