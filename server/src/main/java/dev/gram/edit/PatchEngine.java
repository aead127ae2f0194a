package dev.gram.edit;

import dev.gram.base.GramException;
import dev.gram.format.GramDocument;
import io.vertx.core.json.JsonArray;
import java.util.List;

/**
 * Applies a patch's operations to a state. The store calls it inside the document's write actor,
 * after the compare-and-swap check, so operations always apply to the revision the caller saw.
 * It is a pure function: it throws {@link dev.gram.base.GramException} ({@code E_ARGUMENT}) for
 * an operation that cannot apply, and then nothing is written.
 */
public interface PatchEngine {

  Outcome apply(GramDocument base, JsonArray operations, Context context);

  /** What the engine may need besides the state: how to resolve other documents' ids. */
  interface Context {
    /** True when a document with that owner id exists in the vault. */
    boolean documentExists(String documentId);
  }

  /** The new state, the ids of records the operations created, and diagnostics. */
  record Outcome(GramDocument state, List<String> created, JsonArray diagnostics) {}
}
