package dev.gram.testing.disk;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Iterator;

/** A path of the simulated disk: a real path that keeps the code using it on the disk's file system. */
final class DiskPath implements Path {
  private final DiskFileSystem fs;
  final Path real;

  DiskPath(DiskFileSystem fs, Path real) {
    this.fs = fs;
    this.real = real;
  }

  /** The real path behind any path handed to this file system (a plain relative name is fine). */
  static Path unwrap(Path p) {
    if (p instanceof DiskPath d) {
      return d.real;
    }
    if (p.getFileSystem() == FileSystems.getDefault()) {
      return p;
    }
    return Path.of(p.toString());
  }

  private Path wrap(Path p) {
    return p == null ? null : fs.wrap(p);
  }

  @Override
  public DiskFileSystem getFileSystem() {
    return fs;
  }

  @Override
  public boolean isAbsolute() {
    return real.isAbsolute();
  }

  @Override
  public Path getRoot() {
    return wrap(real.getRoot());
  }

  @Override
  public Path getFileName() {
    return wrap(real.getFileName());
  }

  @Override
  public Path getParent() {
    return wrap(real.getParent());
  }

  @Override
  public int getNameCount() {
    return real.getNameCount();
  }

  @Override
  public Path getName(int index) {
    return wrap(real.getName(index));
  }

  @Override
  public Path subpath(int beginIndex, int endIndex) {
    return wrap(real.subpath(beginIndex, endIndex));
  }

  @Override
  public boolean startsWith(Path other) {
    return other instanceof DiskPath d ? d.fs == fs && real.startsWith(d.real) : false;
  }

  @Override
  public boolean startsWith(String other) {
    return real.startsWith(other);
  }

  @Override
  public boolean endsWith(Path other) {
    return real.endsWith(unwrap(other));
  }

  @Override
  public boolean endsWith(String other) {
    return real.endsWith(other);
  }

  @Override
  public Path normalize() {
    return wrap(real.normalize());
  }

  @Override
  public Path resolve(Path other) {
    return wrap(real.resolve(unwrap(other)));
  }

  @Override
  public Path resolve(String other) {
    return wrap(real.resolve(other));
  }

  @Override
  public Path resolveSibling(Path other) {
    return wrap(real.resolveSibling(unwrap(other)));
  }

  @Override
  public Path resolveSibling(String other) {
    return wrap(real.resolveSibling(other));
  }

  @Override
  public Path relativize(Path other) {
    return wrap(real.relativize(unwrap(other)));
  }

  @Override
  public URI toUri() {
    return real.toUri();
  }

  @Override
  public Path toAbsolutePath() {
    return wrap(real.toAbsolutePath());
  }

  @Override
  public Path toRealPath(LinkOption... options) throws IOException {
    fs.checkAlive();
    // On a disk that folds names, the real path is spelled as the folders spell it.
    return wrap(fs.disk().spelled(real).toRealPath(options));
  }

  @Override
  public File toFile() {
    throw new UnsupportedOperationException("a path of the simulated disk has no java.io.File: " + real);
  }

  @Override
  public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers)
      throws IOException {
    return real.register(watcher, events, modifiers);
  }

  @Override
  public WatchKey register(WatchService watcher, WatchEvent.Kind<?>... events) throws IOException {
    return real.register(watcher, events);
  }

  @Override
  public Iterator<Path> iterator() {
    return fs.wrap(real.iterator());
  }


  @Override
  public int compareTo(Path other) {
    return real.compareTo(unwrap(other));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DiskPath d && d.fs == fs && d.real.equals(real);
  }

  @Override
  public int hashCode() {
    return real.hashCode();
  }

  @Override
  public String toString() {
    return real.toString();
  }
}
