package dev.gram.index;

import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * Paths waiting for a background worker (the rebuild, the embedder), oldest first. A path queued
 * again before it is taken is worked on once: the worker reads the document's current state when
 * it gets to it, so one pass covers every change queued meanwhile.
 */
final class PathQueue {
  private final LinkedHashSet<String> items = new LinkedHashSet<>();

  synchronized void add(String path) {
    if (items.add(path)) {
      notifyAll();
    }
  }

  /** The oldest path, or {@code null} when none came within {@code maxMs} or {@link #wake} was called. */
  synchronized String take(long maxMs) throws InterruptedException {
    if (items.isEmpty()) {
      wait(maxMs);
    }
    if (items.isEmpty()) {
      return null;
    }
    Iterator<String> it = items.iterator();
    String p = it.next();
    it.remove();
    return p;
  }

  synchronized int size() {
    return items.size();
  }

  synchronized void clear() {
    items.clear();
  }

  /** Lets a worker blocked in {@link #take} look at its closed flag now rather than later. */
  synchronized void wake() {
    notifyAll();
  }
}
