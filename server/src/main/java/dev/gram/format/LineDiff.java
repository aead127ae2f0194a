package dev.gram.format;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Line diffs between two canonical texts: each revision is stored as the hunks that turn the
 * previous revision's text into its own.
 *
 * <p>The common prefix and suffix are trimmed first (most revisions touch one region); the middle
 * is diffed with Myers' O((N+M)D) algorithm. When the middle differs in more than {@link
 * #MAX_EDIT_DISTANCE} lines the diff gives up on minimality and replaces the whole middle, which
 * is still exact.
 */
public final class LineDiff {
  private LineDiff() {}

  static final int MAX_EDIT_DISTANCE = 4_000;

  /** Splits canonical text (every line ends with {@code \n}) into lines. */
  public static List<String> lines(String text) {
    List<String> out = new ArrayList<>();
    int start = 0;
    while (start < text.length()) {
      int nl = text.indexOf('\n', start);
      if (nl < 0) {
        out.add(text.substring(start));
        break;
      }
      out.add(text.substring(start, nl));
      start = nl + 1;
    }
    return out;
  }

  public static String join(List<String> lines) {
    int size = 0;
    for (String l : lines) {
      size += l.length() + 1;
    }
    StringBuilder sb = new StringBuilder(size);
    for (String l : lines) {
      sb.append(l).append('\n');
    }
    return sb.toString();
  }

  /** Hunks that turn {@code from} into {@code to}, in ascending order of start. */
  public static List<Revision.Hunk> diff(List<String> from, List<String> to) {
    int prefix = 0;
    int max = Math.min(from.size(), to.size());
    while (prefix < max && from.get(prefix).equals(to.get(prefix))) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < max - prefix
        && from.get(from.size() - 1 - suffix).equals(to.get(to.size() - 1 - suffix))) {
      suffix++;
    }
    int aEnd = from.size() - suffix;
    int bEnd = to.size() - suffix;
    if (prefix == aEnd && prefix == bEnd) {
      return List.of();
    }
    List<Revision.Hunk> hunks = myers(from, prefix, aEnd, to, prefix, bEnd);
    if (hunks == null) {
      return List.of(
          new Revision.Hunk(prefix, aEnd - prefix, new ArrayList<>(to.subList(prefix, bEnd))));
    }
    return hunks;
  }

  /** Applies hunks made by {@link #diff} to the text they were computed from. */
  public static List<String> apply(List<String> from, List<Revision.Hunk> hunks) {
    List<String> out = new ArrayList<>(from.size() + 16);
    int cursor = 0;
    for (Revision.Hunk h : hunks) {
      if (h.start() < cursor || h.start() + h.deleteCount() > from.size()) {
        throw new IllegalArgumentException("hunk outside the text at line " + h.start());
      }
      out.addAll(from.subList(cursor, h.start()));
      out.addAll(h.lines());
      cursor = h.start() + h.deleteCount();
    }
    out.addAll(from.subList(cursor, from.size()));
    return out;
  }

  private static List<Revision.Hunk> myers(
      List<String> a, int aStart, int aEnd, List<String> b, int bStart, int bEnd) {
    Map<String, Integer> ids = new HashMap<>();
    int[] x = intern(a, aStart, aEnd, ids);
    int[] y = intern(b, bStart, bEnd, ids);
    List<int[]> ranges = editRanges(x, y);
    if (ranges == null) {
      return null;
    }
    List<Revision.Hunk> hunks = new ArrayList<>(ranges.size());
    for (int[] r : ranges) {
      hunks.add(new Revision.Hunk(aStart + r[0], r[1], new ArrayList<>(b.subList(bStart + r[2], bStart + r[2] + r[3]))));
    }
    return hunks;
  }

  /**
   * Myers' shortest edit script between two sequences of symbols, as ranges {@code {aFrom,
   * aCount, bFrom, bCount}}: replace {@code aCount} symbols of {@code x} at {@code aFrom} with
   * {@code bCount} symbols of {@code y} at {@code bFrom}, in ascending order. Null when more than
   * {@link #MAX_EDIT_DISTANCE} edits would be needed.
   */
  static List<int[]> editRanges(int[] x, int[] y) {
    int n = x.length;
    int m = y.length;
    int maxD = Math.min(n + m, MAX_EDIT_DISTANCE);
    int offset = maxD + 1;
    int[] v = new int[2 * maxD + 3];
    List<int[]> trace = new ArrayList<>();
    int found = -1;
    outer:
    for (int d = 0; d <= maxD; d++) {
      trace.add(v.clone());
      for (int k = -d; k <= d; k += 2) {
        int px;
        if (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) {
          px = v[offset + k + 1];
        } else {
          px = v[offset + k - 1] + 1;
        }
        int py = px - k;
        while (px < n && py < m && x[px] == y[py]) {
          px++;
          py++;
        }
        v[offset + k] = px;
        if (px >= n && py >= m) {
          found = d;
          break outer;
        }
      }
    }
    if (found < 0) {
      return null;
    }
    // Walk back to collect the edit script: which symbols of x are deleted, and which symbols of
    // y are inserted before each index of x.
    boolean[] deleted = new boolean[n];
    int[] insertFrom = new int[n + 1];
    int[] insertCount = new int[n + 1];
    int px = n;
    int py = m;
    for (int d = found; d > 0; d--) {
      int[] vd = trace.get(d);
      int k = px - py;
      int prevK;
      if (k == -d || (k != d && vd[offset + k - 1] < vd[offset + k + 1])) {
        prevK = k + 1;
      } else {
        prevK = k - 1;
      }
      int prevX = vd[offset + prevK];
      int prevY = prevX - prevK;
      while (px > prevX && py > prevY) {
        px--;
        py--;
      }
      if (px == prevX) {
        // insertion of y[prevY] before x-index px; walking back, each comes before the last
        insertFrom[px] = prevY;
        insertCount[px]++;
      } else {
        deleted[prevX] = true;
      }
      px = prevX;
      py = prevY;
    }
    // Group into ranges: a run of deleted symbols together with the insertions around it. The
    // symbols inserted within one run are consecutive in y (the path never goes back).
    List<int[]> ranges = new ArrayList<>();
    int i = 0;
    while (i <= n) {
      if (insertCount[i] == 0 && !(i < n && deleted[i])) {
        i++;
        continue;
      }
      int start = i;
      int bFrom = -1;
      int bCount = 0;
      int delCount = 0;
      while (true) {
        if (insertCount[i] > 0) {
          if (bFrom < 0) {
            bFrom = insertFrom[i];
          }
          bCount += insertCount[i];
        }
        if (i < n && deleted[i]) {
          delCount++;
          i++;
        } else {
          i++;
          break;
        }
      }
      ranges.add(new int[] {start, delCount, bFrom < 0 ? 0 : bFrom, bCount});
    }
    return ranges;
  }

  private static int[] intern(List<String> s, int from, int to, Map<String, Integer> ids) {
    int[] out = new int[to - from];
    for (int i = from; i < to; i++) {
      out[i - from] = ids.computeIfAbsent(s.get(i), k -> ids.size());
    }
    return out;
  }

}
