package dev.gram.tools.support;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.json.JsonObject;

/**
 * The limits of the reading tools, in one place so that descriptions, errors and tests agree.
 *
 * <p>Page sizes bound how many rows one answer carries before it hands out a cursor; every answer
 * is also cut to the 16,384-byte budget, whichever comes first. Document limits bound how many
 * documents one call may name: beyond them the call fails with {@code E_TOO_MANY_DOCUMENTS},
 * naming the limit, instead of reading them. The per-call deadline (the server's
 * {@code --read-deadline-ms}, 15 s by default) turns a call that runs too long into
 * {@code E_TIMEOUT}.
 */
public final class Limits {
  private Limits() {}

  /** gram_list rows per page (the schema's maximum is also the default). */
  public static final int LIST_DEFAULT = 100;

  public static final int LIST_MAX = 100;

  /** gram_brief rows of docs, open and recent (each). */
  public static final int BRIEF_DEFAULT = 10;

  public static final int BRIEF_MAX = 50;

  /** gram_changes revisions per page. */
  public static final int CHANGES_DEFAULT = 20;

  public static final int CHANGES_MAX = 100;

  /** gram_range events per answer without a query. */
  public static final int RANGE_DEFAULT = 50;

  public static final int RANGE_MAX = 100;

  /** gram_range events per answer with a query. */
  public static final int RANGE_TOP_K_DEFAULT = 10;

  public static final int RANGE_TOP_K_MAX = 100;

  /** gram_relations edges per page; a larger limit reads as this one. */
  public static final int RELATIONS_DEFAULT = 100;

  public static final int RELATIONS_MAX = 500;

  /** Documents gram_relations reads in one call (its {@code paths}, or the project by default). */
  public static final int RELATIONS_MAX_DOCUMENTS = 200;

  /** Ids gram_context reads in one call. */
  public static final int CONTEXT_MAX_IDS = 100;

  /** Distinct documents gram_context reads in one call. */
  public static final int CONTEXT_MAX_DOCUMENTS = 25;

  /** Characters of plain text gram_context gives one item (body or blocks), with an ellipsis. */
  public static final int CONTEXT_TEXT_CHARS = 1_200;

  /** Rows of a gram_get outline; the rest are counted in {@code omitted}. */
  public static final int OUTLINE_MAX = 400;

  /** E_TOO_MANY_DOCUMENTS for a request naming more documents than {@code limit}. */
  public static GramException tooManyDocuments(String tool, int limit, int named, String hint) {
    return new GramException(
        ErrorCode.E_TOO_MANY_DOCUMENTS,
        tool + " reads at most " + limit + " documents in one call; this request names " + named
            + (hint == null ? "" : "; " + hint),
        new JsonObject().put("limit", limit).put("named", named));
  }
}
