package dev.gram.tools.spi;

import dev.gram.access.Identity;

/**
 * What a tool may know about the call it serves, independent of the transport that carried it.
 */
public interface CallContext {

  /**
   * The agent's name as recorded in a document's history ({@code by}): the authenticated name
   * when the caller has one, else the name the client declared (or its transport's).
   */
  String agent();

  /** Who is calling: what the gate lets the call reach. The local caller by default. */
  default Identity caller() {
    return Identity.local();
  }

  /**
   * True for the server's own calls (its recall warm-up): background work, which gives way to
   * agents' calls, does not give way to these.
   */
  default boolean background() {
    return false;
  }

  /** True once the client cancelled this call; long work should stop and fail. */
  boolean cancelled();

  /**
   * Reports progress to the client when it asked for it (a {@code progressToken}); a no-op
   * otherwise.
   */
  void progress(double progress, Double total, String message);

  /** A context for calls made inside the server (tests, benchmarks, the welcome document). */
  static CallContext of(String agent) {
    return new CallContext() {
      @Override
      public String agent() {
        return agent;
      }

      @Override
      public boolean cancelled() {
        return false;
      }

      @Override
      public void progress(double progress, Double total, String message) {}
    };
  }
}
