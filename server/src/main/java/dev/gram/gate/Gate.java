package dev.gram.gate;

import dev.gram.access.ApprovalException;
import dev.gram.access.Approvals;
import dev.gram.access.Identity;
import dev.gram.store.DocumentReader;
import dev.gram.store.DocumentWriter;

/**
 * Where every path to a document passes: the store as one {@link Identity} sees it. {@link
 * #reader} and {@link #writer} give the views of the store's two interfaces a caller's calls use. A
 * caller with every approval gets the store itself, untouched, so its answers are exactly
 * what they were before approvals existed.
 *
 * <p>The decision is {@link Approvals}'; this class and its two views only apply it. Any front end
 * (MCP tools, resources, a web page for a person) that reads and writes through these views
 * cannot reach past the caller's approvals.
 */
public final class Gate {
  private Gate() {}

  /** The documents of {@code store} as {@code caller} may read them. */
  public static DocumentReader reader(DocumentReader store, Identity caller) {
    return unrestricted(caller) ? store : new GatedReader(store, caller);
  }

  /** {@code store}'s writer as {@code caller} may use it. */
  public static DocumentWriter writer(DocumentWriter store, Identity caller) {
    return unrestricted(caller) ? store : new GatedWriter(store, caller);
  }

  /** True when the caller holds every approval now: the gate has nothing to withhold. */
  public static boolean unrestricted(Identity caller) {
    return caller == null || caller.approvals().everything();
  }

  /**
   * Checks one path for {@code caller}: {@code E_PATH} unless readable, {@code E_READ_ONLY} when
   * {@code write} is asked of a read-only approval.
   */
  public static void check(Identity caller, String path, boolean write) {
    Approvals a = caller == null ? Approvals.EVERYTHING : caller.approvals();
    if (!a.mayRead(path)) {
      throw ApprovalException.outside();
    }
    if (write && !a.mayWrite(path)) {
      throw ApprovalException.readOnly(path);
    }
  }

  /** {@code E_PATH} unless {@code caller} may name {@code folder} (see {@link Approvals#mayName}). */
  public static void checkFolder(Identity caller, String folder) {
    if (caller != null && !caller.approvals().mayName(folder)) {
      throw ApprovalException.outside();
    }
  }
}
