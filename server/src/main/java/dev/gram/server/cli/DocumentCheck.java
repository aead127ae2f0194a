package dev.gram.server.cli;

import dev.gram.format.GramDocument;
import dev.gram.format.GramFile;
import dev.gram.format.GramParser;
import dev.gram.format.GramWriter;
import dev.gram.format.Hashes;
import dev.gram.format.HistoryCodec;
import dev.gram.format.LineDiff;
import dev.gram.format.Revision;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Verifies one {@code .gram} file as docs/gram-format.md §9 describes, more thoroughly than a load
 * does: every revision is replayed and its state hash checked (a load checks every 32nd), and
 * every replayed state must parse. Pure: bytes in, findings out; it never repairs anything.
 */
final class DocumentCheck {
  /** Something wrong (a problem) or merely worth knowing (a note), at a 1-based line (0: none). */
  record Finding(boolean problem, int line, String what) {}

  /** The findings, and the document's state and history when it parsed. */
  record Result(List<Finding> findings, GramDocument state, List<Revision> history) {
    boolean verified() {
      return findings.stream().noneMatch(Finding::problem);
    }
  }

  private DocumentCheck() {}

  static Result check(byte[] bytes) {
    List<Finding> out = new ArrayList<>();
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      out.add(new Finding(true, 0, "the file is not UTF-8 text"));
      return new Result(out, null, List.of());
    }
    GramParser.Result parsed = GramParser.parse(text);
    if (parsed instanceof GramParser.Failure f) {
      out.add(new Finding(true, f.line(), f.message()));
      return new Result(out, null, List.of());
    }
    GramFile file = ((GramParser.Success) parsed).file();
    String canonical = GramWriter.write(file.state());
    if (!file.hasHistory()) {
      out.add(new Finding(false, 0, "no history: written by hand or exported; the first write records it as revision 0"));
    } else {
      checkHistory(text, file, canonical, out);
    }
    if (!stateSection(text).equals(canonical)) {
      out.add(new Finding(false, 1, "the state section is not in canonical form (edited by hand); the next write rewrites it"));
    }
    return new Result(out, file.state(), file.history());
  }

  private static void checkHistory(String text, GramFile file, String canonical, List<Finding> out) {
    List<Revision> revs = file.history();
    int broken = HistoryCodec.firstBrokenLink(revs);
    if (broken >= 0) {
      Revision r = revs.get(broken);
      String what = r.rev() != broken
          ? "history out of order: entry " + broken + " is revision " + r.rev()
          : "history hash chain broken at revision " + broken + " (an entry was changed after it was written)";
      out.add(new Finding(true, lineOf(text, "@rev " + r.rev()), what));
      return;
    }
    Revision last = revs.get(revs.size() - 1);
    if (file.headRev() != last.rev() || !last.chain().equals(file.headChain())) {
      out.add(new Finding(true, lineOf(text, "@history "),
          "history truncated or altered: @history names revision " + file.headRev()
              + " but the last entry is revision " + last.rev()));
      return;
    }
    List<String> lines = List.of();
    for (Revision r : revs) {
      int at = lineOf(text, "@rev " + r.rev());
      try {
        lines = LineDiff.apply(lines, r.delta());
      } catch (IllegalArgumentException e) {
        out.add(new Finding(true, at, "the delta of revision " + r.rev() + " does not apply to revision " + (r.rev() - 1)));
        return;
      }
      String state = LineDiff.join(lines);
      if (!Hashes.sha256(state).equals(r.stateHash())) {
        out.add(new Finding(true, at, "replaying the history does not reproduce the state hash of revision " + r.rev()));
        return;
      }
      if (GramParser.parse(state) instanceof GramParser.Failure f) {
        out.add(new Finding(true, at, "the state of revision " + r.rev() + " does not parse: line " + f.line() + ": " + f.message()));
        return;
      }
    }
    if (!Hashes.sha256(canonical).equals(last.stateHash())) {
      out.add(new Finding(false, 1, "the current state differs from revision " + last.rev()
          + ": edited by another program; the server adopts it as revision " + (last.rev() + 1)));
    }
  }

  /** The file's text before its history, as written (not canonicalized). */
  private static String stateSection(String text) {
    int h = text.startsWith("@history") ? 0 : text.indexOf("\n@history");
    if (h < 0) {
      return text;
    }
    String s = text.substring(0, h + 1);
    // The writer separates the state and the history with one blank line.
    return s.endsWith("\n\n") ? s.substring(0, s.length() - 1) : s;
  }

  /** The 1-based number of the first line starting with {@code prefix}, or 0. */
  static int lineOf(String text, String prefix) {
    int line = 1;
    int start = 0;
    while (start <= text.length()) {
      if (text.startsWith(prefix, start)) {
        String rest = text.substring(start + prefix.length(), Math.min(text.length(), start + prefix.length() + 1));
        if (!prefix.startsWith("@rev ") || rest.isEmpty() || rest.equals("\n")) {
          return line;
        }
      }
      int nl = text.indexOf('\n', start);
      if (nl < 0) {
        return 0;
      }
      start = nl + 1;
      line++;
    }
    return 0;
  }
}
