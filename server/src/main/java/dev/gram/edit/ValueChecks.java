package dev.gram.edit;

import dev.gram.format.Times;
import java.util.Set;
import java.util.regex.Pattern;

/** Which keys expect which forms of value, for {@code unparsed_value} diagnostics. */
final class ValueChecks {
  private ValueChecks() {}

  private static final Pattern COLOR = Pattern.compile("#[0-9A-Fa-f]{6}");
  private static final Pattern NUMBER = Pattern.compile("[-+]?(\\d+([.,]\\d*)?|[.,]\\d+)([eE][-+]?\\d+)?");
  private static final Pattern PARTIAL_DATE = Pattern.compile("\\d{4}(-\\d{2})?");
  private static final Set<String> PRIORITIES = Set.of("high", "medium", "low");
  private static final Set<String> DATE_KEYS = Set.of("due", "at", "observed");

  /** What is wrong with {@code value} for {@code key}, or {@code null} when nothing is. */
  static String problem(String key, String value) {
    if (DATE_KEYS.contains(key)) {
      if (Times.parseInstant(value) == null && !PARTIAL_DATE.matcher(value).matches()) {
        return key + " is not an ISO date or time: " + value;
      }
    } else if (key.equals("value")) {
      if (!NUMBER.matcher(value.strip()).matches()) {
        return "value is not a number: " + value;
      }
    } else if (key.equals("color")) {
      if (!COLOR.matcher(value).matches()) {
        return "color is not #RRGGBB: " + value;
      }
    } else if (key.equals("p")) {
      if (!PRIORITIES.contains(value)) {
        return "p is not high, medium or low: " + value;
      }
    } else if (key.equals("t")) {
      if (value.indexOf('\n') >= 0) {
        return "t is one line; this title has several";
      }
    }
    return null;
  }
}
