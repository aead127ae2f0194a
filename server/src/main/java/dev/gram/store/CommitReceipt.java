package dev.gram.store;

import io.vertx.core.json.JsonArray;
import java.util.List;

/**
 * What a committed write answers: the new revision, the CAS pair for the next write, the records
 * the write created, and diagnostics about things written that cannot be shown as intended.
 *
 * @param replayed true when this is the original receipt of an earlier identical request
 */
public record CommitReceipt(
    String path,
    int rev,
    String hash,
    List<String> created,
    String requestId,
    JsonArray diagnostics,
    boolean replayed) {}
