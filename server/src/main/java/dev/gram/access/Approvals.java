package dev.gram.access;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one caller may reach: a set of {@link Approval}s, and the one place where the server decides
 * whether a path may be read or written. Every gate (the tools' view of the store, resources,
 * subscriptions, prompts) asks here and nowhere else.
 *
 * <p>Approvals add up: a path's access is the greatest any approval covering it grants, so adding
 * an approval never takes access away ({@code *=read} with {@code project-a=write} reads
 * everything and writes under {@code project-a}).
 *
 * <p>A folder may be <em>named</em> (listed, briefed, subscribed to) when it is readable or when
 * it holds an approved folder: the vault root and {@code project} for {@code project/notes=read};
 * what such a folder shows is filtered down to the readable paths in it.
 */
public final class Approvals {
  /** Read and write everything: the default of stdio, of open loopback HTTP and of {@code --token}. */
  public static final Approvals EVERYTHING = new Approvals(List.of(Approval.EVERYTHING));

  /** Nothing at all: a revoked agent, a token that grants none of this server's scopes. */
  public static final Approvals NONE = new Approvals(List.of());

  private final List<Approval> approvals;
  private final boolean everything;

  private Approvals(List<Approval> approvals) {
    this.approvals = approvals;
    this.everything = approvals.contains(Approval.EVERYTHING);
  }

  /** The approvals, one per folder (the greatest access given for it), in folder order. */
  public static Approvals of(List<Approval> approvals) {
    Map<String, Access> byFolder = new TreeMap<>();
    for (Approval a : approvals) {
      byFolder.merge(a.folder(), a.access(), Access::or);
    }
    List<Approval> list = new ArrayList<>();
    byFolder.forEach((folder, access) -> list.add(new Approval(folder, access)));
    return new Approvals(List.copyOf(list));
  }

  public List<Approval> list() {
    return approvals;
  }

  /** True when nothing is withheld: every path read and written (answers as they always were). */
  public boolean everything() {
    return everything;
  }

  /** True when nothing at all is approved. */
  public boolean none() {
    return approvals.isEmpty();
  }

  /** What the caller may do at {@code path} (a normalized vault path, document or folder). */
  public Access access(String path) {
    if (everything) {
      return Access.WRITE;
    }
    Access best = Access.NONE;
    for (Approval a : approvals) {
      if (a.covers(path)) {
        best = best.or(a.access());
      }
    }
    return best;
  }

  public boolean mayRead(String path) {
    return access(path).reads();
  }

  public boolean mayWrite(String path) {
    return access(path).writes();
  }

  /**
   * True when the folder may be named: it is readable, or an approved folder lies below it (the
   * vault root always qualifies for a caller with any approval).
   */
  public boolean mayName(String folder) {
    if (mayRead(folder)) {
      return true;
    }
    for (Approval a : approvals) {
      if (folder.isEmpty() || (a.folder().startsWith(folder) && a.folder().length() > folder.length()
          && a.folder().charAt(folder.length()) == '/')) {
        return true;
      }
    }
    return false;
  }

  /** The greatest access any approval gives: what {@code gram_projects} reports as the vault's. */
  public Access best() {
    Access best = Access.NONE;
    for (Approval a : approvals) {
      best = best.or(a.access());
    }
    return best;
  }

  /**
   * The greatest access anywhere inside {@code folder} (at it or below it): what a listed mount or
   * project shows as its {@code access}.
   */
  public Access bestWithin(String folder) {
    Access best = access(folder);
    for (Approval a : approvals) {
      if (folder.isEmpty() || a.folder().startsWith(folder + "/")) {
        best = best.or(a.access());
      }
    }
    return best;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Approvals other && other.approvals.equals(approvals);
  }

  @Override
  public int hashCode() {
    return approvals.hashCode();
  }

  /** {@code a=write b=read}, as logs and {@code agents list} show them. */
  @Override
  public String toString() {
    if (approvals.isEmpty()) {
      return "(none)";
    }
    StringBuilder sb = new StringBuilder();
    for (Approval a : approvals) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(a);
    }
    return sb.toString();
  }
}
