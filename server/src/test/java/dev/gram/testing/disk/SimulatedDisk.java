package dev.gram.testing.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * The operating system's file layer as a power cut sees it, for tests: a folder of real files
 * that the code under test reads and writes through {@link #root()} (a path of this disk's own
 * {@link FileSystem}), and beside it a model of what the physical disk holds. The model keeps,
 * per file, its content as of its last fsync and the writes made since; per folder, its names as
 * of its last fsync and the creates, renames and unlinks made since. A file's fsync makes its
 * content durable; a folder's fsync makes its names durable (what each name points to, not the
 * content of what it points to). Nothing else is.
 *
 * <p>A <em>power cut</em> ({@link #cutAfter}, {@link #cutNow}) stops the machine between two
 * operations: the operation that meets it fails, as does every later one, with {@link
 * PowerCut}, whose message is the one a vanished FUSE file system gives. {@link #restoreTo} then
 * writes what the disk would hold after the power came back into an empty folder, where recovery
 * runs on plain files: every write no fsync covered is gone ({@link Loss#ALL_UNSYNCED}), or each
 * file keeps a prefix of its unsynced writes in order, the last one torn at a sector boundary
 * ({@link Loss#TORN_PREFIX}). This is SQLite's crash-test VFS and ALICE's model of a file system
 * that orders nothing it was not told to: a test double of the operating system, not of the store,
 * whose real code runs on it unchanged.
 *
 * <p>Operations are counted (writes, truncations, fsyncs of files and folders, creates, renames,
 * links, unlinks; reads are not), so that a test can cut the power after the first, second, …
 * Nth operation of a scenario. The real files never see an fsync (the model decides what
 * survives), which makes a simulated run faster than a real one; {@link #fsyncLatency} gives the
 * simulated disk the latency of a real one, so that concurrent writers meet an fsync in progress
 * as they would on hardware.
 */
public final class SimulatedDisk {
  /** What a power cut does to the writes no fsync covered. */
  public enum Loss {
    /** They are all gone. */
    ALL_UNSYNCED,
    /** Each file keeps a prefix of them, in order; the last one kept may be torn at a sector boundary. */
    TORN_PREFIX
  }

  /** Every operation of a process after it was killed ({@link #killProcess}) fails with this. */
  public static final class ProcessGone extends IOException {
    ProcessGone() {
      super("Bad file descriptor (the process was killed)");
    }
  }

  /** Every operation after the power cut fails with this. */
  public static final class PowerCut extends IOException {
    PowerCut() {
      super("Transport endpoint is not connected");
    }
  }

  static final int SECTOR = 512;

  private final Path base;
  /** The file system of the process running now; a killed process keeps its own, dead. */
  private volatile DiskFileSystem fileSystem;
  private volatile int process;
  private long killAfter = Long.MAX_VALUE;
  private final Inode root;
  private final Map<Long, Inode> inodes = new HashMap<>();
  private long nextId;

  // guarded by this
  private long operations;
  private long cutAfter = Long.MAX_VALUE;
  private volatile boolean cut;
  private long cutAt = -1;
  private final ArrayDeque<String> trace = new ArrayDeque<>();
  private Predicate<String> failFsyncOf = name -> false;
  private int fsyncFailuresLeft;
  private long fsyncsFailed;
  /** Faults of writes and renames, by file name: the operation fails with the message, changing nothing. */
  private final List<Fault> faults = new ArrayList<>();
  private volatile Hold readHold;

  private record Fault(String op, Predicate<String> name, String message, int[] left) {}
  private volatile long fsyncLatencyNanos;
  private volatile boolean foldsNames;

  private SimulatedDisk(Path base) {
    this.base = base.toAbsolutePath().normalize();
    this.fileSystem = new DiskFileSystem(this, 0);
    this.root = newInode(Kind.DIR);
  }

  /**
   * A disk holding what the real folder {@code base} holds now, all of it durable. The folder
   * must exist; the code under test must reach it only through {@link #root()}.
   */
  public static SimulatedDisk over(Path base) throws IOException {
    SimulatedDisk d = new SimulatedDisk(base);
    synchronized (d) {
      d.load(d.root, d.base);
    }
    return d;
  }

  private void load(Inode dir, Path real) throws IOException {
    try (var children = Files.newDirectoryStream(real)) {
      for (Path c : children) {
        Inode child;
        if (Files.isSymbolicLink(c)) {
          child = newInode(Kind.LINK);
          child.linkTarget = Files.readSymbolicLink(c).toString();
        } else if (Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS)) {
          child = newInode(Kind.DIR);
          load(child, c);
        } else {
          child = newInode(Kind.FILE);
          byte[] b = Files.readAllBytes(c);
          child.content.set(b);
          child.durable = b;
        }
        String name = c.getFileName().toString();
        dir.entries.put(name, child.id);
        dir.durableEntries.put(name, child.id);
      }
    }
  }

  /**
   * Makes this disk's names case-insensitive and normalization-insensitive but preserving, as
   * macOS's and Windows' volumes are by default ({@link FoldedNames}).
   */
  public SimulatedDisk foldingNames() {
    foldsNames = true;
    return this;
  }

  /** The real file behind {@code real}: the existing entries' spelling when this disk folds names. */
  Path spelled(Path real) {
    return foldsNames ? FoldedNames.spelled(base, real) : real;
  }

  /** The folder {@code base} as the code under test must see it. */
  public Path root() {
    return fileSystem.wrap(base);
  }

  /** A real path as this disk's file system names it. */
  public Path path(Path real) {
    return fileSystem.wrap(real.toAbsolutePath().normalize());
  }

  public FileSystem fileSystem() {
    return fileSystem;
  }

  // ------------------------------------------------------------------ control

  /**
   * Kills the process using the disk, not the machine: everything it wrote stays in the page
   * cache, every file it has open and every later operation through its paths fails, and the next
   * process reaches the disk through the new {@link #root()}.
   */
  public synchronized Path killProcess() {
    killAfter = Long.MAX_VALUE;
    process++;
    fileSystem = new DiskFileSystem(this, process);
    return root();
  }

  /** Kills the process when the operation after the {@code n}th one starts, like {@link #cutAfter} cuts the power. */
  public synchronized void killProcessAfter(long n) {
    killAfter = n;
  }

  /** Which process runs now: 0 until the first kill, then 1, 2, … */
  public int process() {
    return process;
  }

  /** Cuts the power when the operation after the {@code n}th one starts (n = 0: before the first). */
  public synchronized void cutAfter(long n) {
    cutAfter = n;
    if (operations > n) {
      powerOff();
    }
  }

  /** Cuts the power now. */
  public synchronized void cutNow() {
    powerOff();
  }

  public boolean isCut() {
    return cut;
  }

  /** Operations counted so far (all of them, before and after a cut was armed). */
  public synchronized long operations() {
    return operations;
  }

  /** The operation the power was cut before (1-based), or -1 while it is on. */
  public synchronized long cutBeforeOperation() {
    return cutAt;
  }

  /** The last operations, newest last, for failure messages. */
  public synchronized List<String> recentOperations() {
    return List.copyOf(trace);
  }

  /**
   * The next {@code times} fsyncs of files (or folders) whose name passes {@code which} fail with
   * EIO. As on Linux, the writes that fsync was to make durable are then dropped from the disk's
   * view (the kernel marks those pages clean): a later fsync does not make them durable. A folder
   * whose fsync failed keeps its earlier durable names.
   */
  public synchronized void failFsync(Predicate<String> which, int times) {
    failFsyncOf = which;
    fsyncFailuresLeft = times;
  }

  public synchronized long fsyncsFailed() {
    return fsyncsFailed;
  }

  /**
   * The next {@code times} writes to files whose name passes {@code which} fail with {@code
   * message} (say "No space left on device") and change nothing.
   */
  public synchronized void failWrites(Predicate<String> which, String message, int times) {
    faults.add(new Fault("write", which, message, new int[] {times}));
  }

  /** The next {@code times} renames onto a name that passes {@code which} fail with {@code message}. */
  public synchronized void failRenames(Predicate<String> which, String message, int times) {
    faults.add(new Fault("rename", which, message, new int[] {times}));
  }

  /**
   * A read held at a point the test chose: the code under test stops there ({@link #reached}) until
   * the test {@link #release}s it. A forced interleaving, instead of a sleep hoping for one.
   */
  public static final class Hold {
    private final Predicate<String> which;
    private final java.util.concurrent.CountDownLatch reached = new java.util.concurrent.CountDownLatch(1);
    private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);

    Hold(Predicate<String> which) {
      this.which = which;
    }

    /** Waits until a read has reached the hold; false when none did in time. */
    public boolean reached(java.time.Duration within) throws InterruptedException {
      return reached.await(within.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    public void release() {
      released.countDown();
    }
  }

  /**
   * The next reads (file opens for reading, folder listings) of a file or folder whose name passes
   * {@code which} wait until the hold is released.
   */
  public Hold holdReads(Predicate<String> which) {
    Hold h = new Hold(which);
    readHold = h;
    return h;
  }

  /** Called before a read opens a file or lists a folder: waits while a hold holds it (outside the disk's lock). */
  void beforeRead(Path real) throws IOException {
    Hold h = readHold;
    if (h != null && h.released.getCount() > 0 && h.which.test(nameOf(real))) {
      h.reached.countDown();
      try {
        h.released.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("held read interrupted");
      }
    }
  }

  /** No more injected faults of writes and renames. */
  public synchronized void clearFaults() {
    faults.clear();
    fsyncFailuresLeft = 0;
  }

  private void injected(String op, Path real) throws IOException {
    for (Fault f : faults) {
      if (f.op().equals(op) && f.left()[0] > 0 && f.name().test(nameOf(real))) {
        f.left()[0]--;
        throw new IOException(f.message());
      }
    }
  }

  /** How long each fsync takes (none by default). */
  public void fsyncLatency(java.time.Duration latency) {
    fsyncLatencyNanos = latency.toNanos();
  }

  // ------------------------------------------------------------------ after the cut

  /**
   * Writes what the disk holds after the power comes back into {@code target} (an empty or
   * missing folder): the durable names of every folder from the root down, each file with its
   * durable content, plus what {@code loss} keeps of its unsynced writes.
   */
  public synchronized void restoreTo(Path target, Loss loss, long seed) throws IOException {
    Files.createDirectories(target);
    Random random = new Random(seed);
    restoreDir(root, target, loss, random, new HashMap<>());
  }

  private void restoreDir(Inode dir, Path out, Loss loss, Random random, Map<Long, Path> written) throws IOException {
    for (Map.Entry<String, Long> e : dir.durableEntries.entrySet()) {
      Inode child = inodes.get(e.getValue());
      Path p = out.resolve(e.getKey());
      switch (child.kind) {
        case DIR -> {
          Files.createDirectories(p);
          restoreDir(child, p, loss, random, written);
        }
        case LINK -> Files.createSymbolicLink(p, Path.of(child.linkTarget));
        case FILE -> {
          Path same = written.get(child.id);
          if (same != null) {
            Files.createLink(p, same); // a second durable name of one file
          } else {
            Files.write(p, survivingContent(child, loss, random));
            written.put(child.id, p);
          }
        }
      }
    }
  }

  private static byte[] survivingContent(Inode f, Loss loss, Random random) {
    if (loss == Loss.ALL_UNSYNCED || f.pending.isEmpty()) {
      return f.durable;
    }
    Bytes b = new Bytes();
    b.set(f.durable);
    int keep = random.nextInt(f.pending.size() + 1);
    for (int i = 0; i < keep; i++) {
      f.pending.get(i).applyTo(b);
    }
    if (keep < f.pending.size() && f.pending.get(keep) instanceof Write w && w.bytes.length > 0) {
      // The write the cut interrupted: some whole sectors of it reached the platter.
      long firstSector = w.at / SECTOR;
      long lastSector = (w.at + w.bytes.length - 1) / SECTOR;
      long sectors = random.nextInt((int) (lastSector - firstSector + 1) + 1);
      long end = Math.min(w.at + w.bytes.length, (firstSector + sectors) * SECTOR);
      if (end > w.at) {
        b.write(w.at, Arrays.copyOf(w.bytes, (int) (end - w.at)));
      }
    }
    return b.toArray();
  }

  // ------------------------------------------------------------------ the model

  enum Kind { FILE, DIR, LINK }

  /** A file's write or truncation since its last fsync. */
  private sealed interface Change permits Write, Truncate {
    void applyTo(Bytes b);
  }

  private record Write(long at, byte[] bytes) implements Change {
    @Override
    public void applyTo(Bytes b) {
      b.write(at, bytes);
    }
  }

  private record Truncate(long size) implements Change {
    @Override
    public void applyTo(Bytes b) {
      b.truncate(size);
    }
  }

  static final class Inode {
    final long id;
    final Kind kind;
    /** Files: what the page cache holds (the real file's content). */
    final Bytes content = new Bytes();
    /** Files: the content as of the last fsync. */
    byte[] durable = new byte[0];
    /** Files: changes since the last fsync, in order. */
    final List<Change> pending = new ArrayList<>();
    /** Files: ranges a failed fsync dropped (the disk keeps its old bytes there until rewritten). */
    final List<long[]> lost = new ArrayList<>();
    /** Folders: names now, and as of the last fsync. */
    final Map<String, Long> entries = new TreeMap<>();
    Map<String, Long> durableEntries = new TreeMap<>();
    String linkTarget;

    Inode(long id, Kind kind) {
      this.id = id;
      this.kind = kind;
    }

    boolean isDir() {
      return kind == Kind.DIR;
    }
  }

  private Inode newInode(Kind kind) {
    Inode i = new Inode(nextId++, kind);
    inodes.put(i.id, i);
    return i;
  }

  /** The inode a real path names now, or null when it is outside the disk or absent. */
  synchronized Inode lookup(Path real) {
    Path abs = real.toAbsolutePath().normalize();
    if (!abs.startsWith(base)) {
      return null;
    }
    Inode at = root;
    for (Path name : base.relativize(abs)) {
      if (name.toString().isEmpty()) {
        continue;
      }
      if (!at.isDir()) {
        return null;
      }
      Long id = at.entries.get(name.toString());
      if (id == null) {
        return null;
      }
      at = inodes.get(id);
    }
    return at;
  }

  private Inode parentOf(Path real) {
    Path abs = real.toAbsolutePath().normalize();
    if (abs.equals(base) || abs.getParent() == null) {
      return null;
    }
    Inode p = lookup(abs.getParent());
    return p != null && p.isDir() ? p : null;
  }

  private static String nameOf(Path real) {
    return real.toAbsolutePath().normalize().getFileName().toString();
  }

  /** Counts an operation, or fails it when the power is (or goes) off. */
  private void step(DiskFileSystem from, String what, Path real) throws IOException {
    checkAlive(from);
    operations++;
    if (trace.size() == 64) {
      trace.removeFirst();
    }
    trace.addLast("#" + operations + " " + what + " " + (real == null ? "" : base.relativize(real.toAbsolutePath().normalize())));
    if (operations > cutAfter) {
      powerOff();
      throw new PowerCut();
    }
    if (operations > killAfter) {
      killAfter = Long.MAX_VALUE;
      operations--; // the operation never ran: the next process counts on from here
      trace.removeLast();
      killProcess();
      throw new ProcessGone();
    }
  }

  private void powerOff() {
    if (!cut) {
      cut = true;
      cutAt = operations;
    }
  }

  void checkAlive(DiskFileSystem from) throws IOException {
    if (cut) {
      throw new PowerCut();
    }
    if (from.process != process) {
      throw new ProcessGone();
    }
  }

  interface IoAction<T> {
    T run() throws IOException;
  }

  // ------------------------------------------------------------------ operations (called by the provider)

  /** Opens a file; returns the channel the code under test gets. */
  synchronized FileChannel open(DiskFileSystem caller, Path real, boolean write, boolean create, boolean createNew, boolean truncate,
      boolean append, IoAction<FileChannel> open) throws IOException {
    checkAlive(caller);
    Inode parent = parentOf(real);
    Inode existing = lookup(real);
    if (!write) {
      // A folder opened to fsync it, the root's included, is modelled like a file read.
      boolean modelled = existing != null && existing.kind != Kind.LINK;
      return modelled ? new DiskChannel(caller, existing, open.run(), false, real) : open.run();
    }
    if (parent == null || (existing != null && existing.kind == Kind.LINK)) {
      return open.run(); // outside the disk, or through a link: not modelled
    }
    if (existing == null && (create || createNew)) {
      step(caller, "create", real);
      FileChannel ch = open.run();
      Inode f = newInode(Kind.FILE);
      parent.entries.put(nameOf(real), f.id);
      return new DiskChannel(caller, f, ch, append, real);
    }
    if (existing != null && truncate && existing.content.size() > 0) {
      step(caller, "truncate", real);
      FileChannel ch = open.run();
      change(existing, new Truncate(0));
      return new DiskChannel(caller, existing, ch, append, real);
    }
    return new DiskChannel(caller, existing, open.run(), append, real);
  }

  synchronized int write(DiskFileSystem caller, Inode f, FileChannel ch, ByteBuffer src, long at, Path real) throws IOException {
    step(caller, "write", real);
    injected("write", real);
    ByteBuffer copy = src.duplicate();
    int n = ch.write(src, at);
    byte[] b = new byte[n];
    copy.get(b);
    if (f != null) {
      change(f, new Write(at, b));
      trimLost(f, at, at + n);
    }
    return n;
  }

  synchronized void truncate(DiskFileSystem caller, Inode f, FileChannel ch, long size, Path real) throws IOException {
    step(caller, "truncate", real);
    ch.truncate(size);
    if (f != null && size < f.content.size()) {
      change(f, new Truncate(size));
    }
  }

  private static void change(Inode f, Change c) {
    c.applyTo(f.content);
    f.pending.add(c);
  }

  private static void trimLost(Inode f, long from, long to) {
    List<long[]> kept = new ArrayList<>();
    for (long[] r : f.lost) {
      if (r[1] <= from || r[0] >= to) {
        kept.add(r);
        continue;
      }
      if (r[0] < from) {
        kept.add(new long[] {r[0], from});
      }
      if (r[1] > to) {
        kept.add(new long[] {to, r[1]});
      }
    }
    f.lost.clear();
    f.lost.addAll(kept);
  }

  /** fsync (or fdatasync) of a file or a folder. */
  void fsync(DiskFileSystem caller, Inode node, Path real) throws IOException {
    synchronized (this) {
      step(caller, node != null && node.isDir() ? "fsync-dir" : "fsync", real);
      if (node == null) {
        return;
      }
      if (fsyncFailuresLeft > 0 && failFsyncOf.test(nameOf(real))) {
        fsyncFailuresLeft--;
        fsyncsFailed++;
        for (Change c : node.pending) {
          if (c instanceof Write w) {
            node.lost.add(new long[] {w.at, w.at + w.bytes.length});
          }
        }
        node.pending.clear();
        throw new IOException("Input/output error");
      }
      if (node.isDir()) {
        node.durableEntries = new TreeMap<>(node.entries);
      } else {
        byte[] now = node.content.toArray();
        for (long[] r : node.lost) {
          for (long i = r[0]; i < Math.min(r[1], now.length); i++) {
            now[(int) i] = i < node.durable.length ? node.durable[(int) i] : 0;
          }
        }
        node.durable = now;
        node.pending.clear();
      }
    }
    long latency = fsyncLatencyNanos;
    if (latency > 0) {
      LockSupport.parkNanos(latency);
    }
  }

  synchronized void mkdir(DiskFileSystem caller, Path real, IoAction<Void> action) throws IOException {
    Inode parent = parentOf(real);
    if (parent == null || lookup(real) != null) { // outside, or an existing folder: nothing changes
      checkAlive(caller);
      action.run();
      return;
    }
    step(caller, "mkdir", real);
    action.run();
    parent.entries.put(nameOf(real), newInode(Kind.DIR).id);
  }

  synchronized void unlink(DiskFileSystem caller, Path real, IoAction<Void> action) throws IOException {
    Inode parent = parentOf(real);
    if (parent == null || lookup(real) == null) { // outside, or nothing there: nothing changes
      checkAlive(caller);
      action.run();
      return;
    }
    step(caller, "unlink", real);
    action.run();
    parent.entries.remove(nameOf(real));
  }

  synchronized void rename(DiskFileSystem caller, Path from, Path to, IoAction<Void> action) throws IOException {
    Inode pf = parentOf(from);
    Inode pt = parentOf(to);
    if (pf == null && pt == null) {
      checkAlive(caller);
      action.run();
      return;
    }
    if (pf == null || pt == null) {
      throw new UnsupportedOperationException("a rename across the simulated disk's edge: " + from + " -> " + to);
    }
    step(caller, "rename", to);
    injected("rename", to);
    action.run();
    Long id = pf.entries.remove(nameOf(from));
    if (id != null) {
      pt.entries.put(nameOf(to), id);
    }
  }

  synchronized void link(DiskFileSystem caller, Path link, Path existing, IoAction<Void> action) throws IOException {
    Inode parent = parentOf(link);
    Inode target = lookup(existing);
    if (parent == null || target == null) {
      checkAlive(caller);
      action.run();
      return;
    }
    step(caller, "link", link);
    action.run();
    parent.entries.put(nameOf(link), target.id);
  }

  synchronized void symlink(DiskFileSystem caller, Path link, Path target, IoAction<Void> action) throws IOException {
    Inode parent = parentOf(link);
    if (parent == null) {
      checkAlive(caller);
      action.run();
      return;
    }
    step(caller, "symlink", link);
    action.run();
    Inode l = newInode(Kind.LINK);
    l.linkTarget = target.toString();
    parent.entries.put(nameOf(link), l.id);
  }

  synchronized void copy(DiskFileSystem caller, Path to, IoAction<Void> action) throws IOException {
    Inode parent = parentOf(to);
    if (parent == null) {
      checkAlive(caller);
      action.run();
      return;
    }
    step(caller, "copy", to);
    Inode old = lookup(to);
    action.run();
    Inode f = old != null && old.kind == Kind.FILE ? old : newInode(Kind.FILE);
    byte[] b = Files.readAllBytes(to);
    change(f, new Truncate(0));
    change(f, new Write(0, b));
    parent.entries.put(nameOf(to), f.id);
  }

  /** A growable byte array: a file's content in the model. */
  static final class Bytes {
    private byte[] a = new byte[0];
    private int size;

    void set(byte[] b) {
      a = b.clone();
      size = b.length;
    }

    int size() {
      return size;
    }

    void write(long at, byte[] b) {
      int end = Math.toIntExact(at + b.length);
      if (end > a.length) {
        a = Arrays.copyOf(a, Math.max(end, a.length * 2));
      }
      if (at > size) {
        Arrays.fill(a, size, (int) at, (byte) 0);
      }
      System.arraycopy(b, 0, a, (int) at, b.length);
      size = Math.max(size, end);
    }

    void truncate(long n) {
      if (n < size) {
        size = (int) n;
      }
    }

    byte[] toArray() {
      return Arrays.copyOf(a, size);
    }
  }
}
