package dev.gram.index;

import java.util.Locale;
import java.util.Set;

/**
 * The mode {@code auto} picks for a query: {@code exact} for a quoted query; {@code keyword} for
 * an id, a date with at most two other words, short queries, or whenever semantic search is not
 * available; the mode of questions ({@code hybrid} by default) for a question asked as a sentence;
 * {@code hybrid} for anything longer, which reads as a description of what is wanted. The
 * thresholds were measured ({@code docs/recall.md}).
 */
final class AutoMode {
  /** A digit, underscore or colon: an identifier, a version, a time; exact words, not meaning. */
  private static final java.util.regex.Pattern CODE_LIKE = java.util.regex.Pattern.compile("[\\d_:]");
  private static final java.util.regex.Pattern SPACES = java.util.regex.Pattern.compile("\\s+");
  private static final Set<String> QUESTION_WORDS =
      Set.of("who", "whom", "whose", "what", "which", "when", "where", "why", "how",
          "is", "are", "was", "were", "do", "does", "did", "can", "could", "should", "would", "will", "must");

  private final int hybridWords;
  private final RecallRequest.Mode questions;

  /**
   * @param hybridWords content words from which auto uses hybrid rather than keyword
   * @param questions the mode of a question asked as a sentence
   */
  AutoMode(int hybridWords, RecallRequest.Mode questions) {
    this.hybridWords = hybridWords;
    this.questions = questions;
  }

  RecallRequest.Mode choose(Queries.Parsed p, SemanticState semantic) {
    String q = p.raw().strip();
    if (q.length() >= 2 && q.startsWith("\"") && q.endsWith("\"")) {
      return RecallRequest.Mode.EXACT;
    }
    if (!p.dates().spans().isEmpty() && p.words().size() <= 2) {
      return RecallRequest.Mode.KEYWORD;
    }
    if (q.indexOf(' ') < 0 && CODE_LIKE.matcher(q).find()) {
      return RecallRequest.Mode.KEYWORD;
    }
    if (!semantic.ready()) {
      return RecallRequest.Mode.KEYWORD;
    }
    if (p.question()) {
      return questions;
    }
    return p.words().size() + p.dates().spans().size() >= hybridWords ? RecallRequest.Mode.HYBRID : RecallRequest.Mode.KEYWORD;
  }

  /** A query asked as a sentence: ends with a question mark or starts with a question word. */
  static boolean isQuestion(String q) {
    if (q.endsWith("?")) {
      return true;
    }
    // Split once, by a pattern compiled once: String.split compiles this one on every call.
    String[] words = SPACES.split(q);
    return words.length >= 3 && QUESTION_WORDS.contains(words[0].toLowerCase(Locale.ROOT));
  }
}
