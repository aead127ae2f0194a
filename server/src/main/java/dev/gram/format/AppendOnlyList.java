package dev.gram.format;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An immutable list that a longer one can share: {@link #plus} returns a list of one more element
 * without copying this one, by writing into spare room at the end of the array they share.
 *
 * <p>Why: a document's history gains one revision per commit and is immutable, since readers hold
 * the snapshots of any moment. Copying it on every commit made a commit cost O(revisions): on a
 * document of 90,000 revisions, two arrays of 360 KB each were copied and dropped per commit.
 *
 * <p>How lists share: every list over one array sees only its own first {@code size} slots, which
 * are never written again. The array's {@code filled} counter says how many slots some list
 * already owns; the list that moves it from its own size to one more (a compare-and-set) writes
 * that slot. Any other list (an older one, after a newer one already took the slot) copies its
 * elements into an array of its own, as it would have without sharing. A new list's array is a
 * final field, so a thread that receives the list sees every element its creator wrote.
 */
final class AppendOnlyList<T> extends AbstractList<T> implements RandomAccess {
  private final Object[] items;
  private final AtomicInteger filled;
  private final int size;

  private AppendOnlyList(Object[] items, AtomicInteger filled, int size) {
    this.items = items;
    this.filled = filled;
    this.size = size;
  }

  /** A list of {@code elements}, copied. */
  static <T> AppendOnlyList<T> of(List<? extends T> elements) {
    int n = elements.size();
    Object[] a = Arrays.copyOf(elements.toArray(), roomFor(n));
    return new AppendOnlyList<>(a, new AtomicInteger(n), n);
  }

  /** This list with {@code element} after its last: shares this list's array when it can. */
  AppendOnlyList<T> plus(T element) {
    if (size < items.length && filled.compareAndSet(size, size + 1)) {
      items[size] = element;
      return new AppendOnlyList<>(items, filled, size + 1);
    }
    Object[] own = new Object[roomFor(size + 1)];
    System.arraycopy(items, 0, own, 0, size);
    own[size] = element;
    return new AppendOnlyList<>(own, new AtomicInteger(size + 1), size + 1);
  }

  /** Room for {@code n} elements and about half as many more. */
  private static int roomFor(int n) {
    return Math.max(8, n + (n >> 1));
  }

  @Override
  @SuppressWarnings("unchecked")
  public T get(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("Index " + index + " out of bounds for length " + size);
    }
    return (T) items[index];
  }

  @Override
  public int size() {
    return size;
  }
}
