package dev.gram.testing.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * A file (or folder) opened on the simulated disk: reads go to the real file, writes and
 * truncations are counted and modelled, and {@link #force} is the fsync the model knows of (the
 * real file is never synced).
 */
final class DiskChannel extends FileChannel {
  private final DiskFileSystem fs;
  private final SimulatedDisk disk;
  /** What the model knows this channel as; null when the file is not modelled. */
  private final SimulatedDisk.Inode inode;
  private final FileChannel real;
  private final boolean append;
  private final Path path;

  DiskChannel(DiskFileSystem fs, SimulatedDisk.Inode inode, FileChannel real, boolean append, Path path) {
    this.fs = fs;
    this.disk = fs.disk();
    this.inode = inode;
    this.real = real;
    this.append = append;
    this.path = path;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    fs.checkAlive();
    return real.read(dst);
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    fs.checkAlive();
    return real.read(dsts, offset, length);
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    fs.checkAlive();
    return real.read(dst, position);
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    synchronized (disk) {
      long at = append ? real.size() : real.position();
      int n = disk.write(fs, inode, real, src, at, path);
      real.position(at + n);
      return n;
    }
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    long n = 0;
    for (int i = offset; i < offset + length; i++) {
      while (srcs[i].hasRemaining()) {
        n += write(srcs[i]);
      }
    }
    return n;
  }

  @Override
  public int write(ByteBuffer src, long position) throws IOException {
    return disk.write(fs, inode, real, src, position, path);
  }

  @Override
  public long position() throws IOException {
    return real.position();
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
    real.position(newPosition);
    return this;
  }

  @Override
  public long size() throws IOException {
    fs.checkAlive();
    return real.size();
  }

  @Override
  public FileChannel truncate(long size) throws IOException {
    disk.truncate(fs, inode, real, size, path);
    return this;
  }

  @Override
  public void force(boolean metaData) throws IOException {
    if (!isOpen()) {
      throw new java.nio.channels.ClosedChannelException();
    }
    disk.fsync(fs, inode, path);
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target) {
    throw new UnsupportedOperationException("transferTo on the simulated disk");
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count) {
    throw new UnsupportedOperationException("transferFrom on the simulated disk");
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) {
    throw new UnsupportedOperationException("memory-mapped files on the simulated disk");
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) throws IOException {
    fs.checkAlive();
    return real.lock(position, size, shared);
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) throws IOException {
    fs.checkAlive();
    return real.tryLock(position, size, shared);
  }

  @Override
  protected void implCloseChannel() throws IOException {
    real.close();
  }
}
