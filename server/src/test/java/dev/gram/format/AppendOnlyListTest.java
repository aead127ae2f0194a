package dev.gram.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A list that shares its array with the lists made from it must still behave as an immutable
 * value: whatever is appended to one list, every other list keeps its own elements.
 */
class AppendOnlyListTest {

  @Test
  void aListKeepsItsElementsWhenAnOlderListIsAppendedToAgain() {
    AppendOnlyList<String> base = AppendOnlyList.of(List.of("a", "b"));
    AppendOnlyList<String> first = base.plus("c");
    // The second append to the same list may not reuse the slot the first one took.
    AppendOnlyList<String> second = base.plus("x");
    AppendOnlyList<String> longer = first.plus("d");

    assertThat(base).containsExactly("a", "b");
    assertThat(first).containsExactly("a", "b", "c");
    assertThat(second).containsExactly("a", "b", "x");
    assertThat(longer).containsExactly("a", "b", "c", "d");
    assertThat(second.plus("y")).containsExactly("a", "b", "x", "y");
    assertThat(first).containsExactly("a", "b", "c");
  }

  @Test
  void aListNeverShowsMoreThanItsOwnElements() {
    AppendOnlyList<Integer> list = AppendOnlyList.of(List.of());
    List<AppendOnlyList<Integer>> all = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      list = list.plus(i);
      all.add(list);
    }
    for (int n = 0; n < all.size(); n++) {
      AppendOnlyList<Integer> l = all.get(n);
      assertThat(l).hasSize(n + 1);
      assertThat(l.get(n)).isEqualTo(n);
      int size = n + 1;
      assertThatThrownBy(() -> l.get(size)).isInstanceOf(IndexOutOfBoundsException.class);
    }
    assertThat(all.get(499).subList(497, 500)).containsExactly(497, 498, 499);
    assertThatThrownBy(() -> all.get(0).add(1)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void threadsAppendingToOneListEachGetTheirOwn() throws Exception {
    AppendOnlyList<Integer> base = AppendOnlyList.of(List.of(0, 1, 2));
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<AppendOnlyList<Integer>>> made = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int mine = 100 + t;
        made.add(pool.submit(() -> {
          go.await();
          AppendOnlyList<Integer> l = base;
          for (int k = 0; k < 200; k++) {
            l = l.plus(mine);
          }
          return l;
        }));
      }
      go.countDown();
      for (int t = 0; t < threads; t++) {
        AppendOnlyList<Integer> l = made.get(t).get();
        assertThat(l).hasSize(203);
        assertThat(l.subList(0, 3)).containsExactly(0, 1, 2);
        assertThat(l.subList(3, 203)).containsOnly(100 + t);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
