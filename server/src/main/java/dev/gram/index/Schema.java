package dev.gram.index;

/**
 * The fields of the recall index. One document of the vault becomes one block of Lucene
 * documents, all carrying its {@link #PATH}, replaced together: a meta document (its fingerprint),
 * one document per record, one per chunk of a body section.
 */
final class Schema {
  private Schema() {}

  /**
   * Bumped whenever the mapping or the analysis changes: an index written with another version is
   * rebuilt from the vault at start.
   */
  static final String VERSION = "5";

  /** Commit user-data keys. */
  static final String USER_VERSION = "gram.index.version";

  static final String USER_MODEL = "gram.index.model";

  // Identity of the block.
  static final String PATH = "path";
  /**
   * One Lucene document's own key ({@code path NUL kind NUL entity NUL chunk NUL n}): a commit
   * replaces only the units whose content changed, by this key.
   */
  static final String UKEY = "ukey";
  static final String KIND = "kind";
  static final String REV = "rev";
  static final String HASH = "hash";

  static final String KIND_META = "m";
  static final String KIND_RECORD = "r";
  static final String KIND_SECTION = "s";

  // Filters.
  static final String FOLDER = "folder";
  static final String TYPE = "type";
  static final String SCOPE = "s";
  /** Every date the record holds (all values of date-valued fields), for dates in queries. */
  static final String DATES = "dall";
  /** Prefix of the per-field date ranges: {@code d.at}, {@code d.due}, … (first value). */
  static final String DATE_PREFIX = "d.";
  /** The record's default date field by type (event at, metric observed, task due, else at). */
  static final String DATE_DEFAULT = "d._";

  // Searched text (keyword analysis).
  static final String TITLE = "title";
  static final String DTITLE = "dtitle";
  /** The document's title on a section with no text of its own (a body that only places records). */
  static final String BARE_TITLE = "btitle";
  static final String HEADING = "heading";
  static final String TEXT = "text";
  /** The text of a record's neighbours in its document ({@link DocUnits#near}), at a low weight. */
  static final String NEAR = "near";

  /** Who a record belongs to (its {@code owner} values, keyword analysis): names in a query boost it. */
  static final String WHO = "who";

  // Searched text (exact analysis).
  static final String IDENT = "ident";
  static final String TITLE_X = "title_x";
  static final String HEADING_X = "heading_x";
  static final String TEXT_X = "text_x";

  /**
   * Doc values: {@code path + "#" + entity id}, the key a recall collapses a document's units by.
   * Read from doc values, not stored fields: a stored field costs the decompression of its whole
   * block, and a recall collapses dozens of candidates (profiled: a third of a keyword recall).
   * Units indexed before this field existed lack it and are read from stored fields instead.
   */
  static final String ENTITY_KEY = "ekey";

  /** The value of {@link #ENTITY_KEY} for entity {@code entityId} of the document at {@code path}. */
  static String entityKey(String path, String entityId) {
    return path + "#" + entityId;
  }

  // Stored: the entity id, for a unit read by something other than a recall's page.
  static final String EID = "eid";

  /** Doc values: what a hit shows of the unit ({@link HitFields}). */
  static final String HIT = "hit";

  // Semantic.
  static final String CHUNK = "chunk";
  static final String EMBEDDED = "emb";
  static final String VECTOR = "vec";
  static final int DIMENSION = 384;
}
