package dev.gram.store;

import dev.gram.format.GramDocument;
import dev.gram.format.GramFile;
import dev.gram.format.GramParser;
import dev.gram.format.GramWriter;
import dev.gram.format.Hashes;
import dev.gram.format.History;
import dev.gram.format.HistoryCodec;
import dev.gram.format.IntegrityException;
import dev.gram.format.LineDiff;
import dev.gram.format.Revision;
import dev.gram.format.StateDiff;
import dev.gram.format.Times;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Reads a document file into a {@link DocSnapshot}, on a worker thread.
 *
 * <ul>
 *   <li>A file that is not UTF-8 or does not parse gives a snapshot with no state and the parse
 *       error as its failure.
 *   <li>A file without a history is revision 0 (actor {@code import}, recorded at the file's
 *       modification time); the first write stores that revision.
 *   <li>A history that fails verification leaves the current state readable and the document
 *       closed to writes ({@code E_INTEGRITY}).
 *   <li>A current state that differs from the history's last revision was edited by another
 *       program: the edit becomes the next revision (actor {@code external}), stored with the next
 *       write, so nothing is lost.
 * </ul>
 */
final class DocumentLoader {
  private DocumentLoader() {}

  /** A file's bytes and the fingerprint they were read under. */
  record FileBytes(byte[] bytes, FileFingerprint fingerprint) {}

  static DocSnapshot load(VaultPath location) throws IOException {
    FileBytes read = read(location.file());
    return read == null ? null : parse(location, read);
  }

  /** The file's bytes, or null when it does not exist. */
  static FileBytes read(Path file) throws IOException {
    FileFingerprint fp = FileFingerprint.of(file);
    if (!fp.exists()) {
      return null;
    }
    byte[] bytes = Files.readAllBytes(file);
    // Re-stat: a writer racing this read would leave a fingerprint that no longer matches.
    FileFingerprint after = FileFingerprint.of(file);
    if (!after.equals(fp)) {
      bytes = Files.readAllBytes(file);
      fp = after;
    }
    return new FileBytes(bytes, fp.withContent(bytes));
  }

  /** The snapshot a file's bytes hold. */
  static DocSnapshot parse(VaultPath location, FileBytes read) {
    byte[] bytes = read.bytes();
    FileFingerprint fp = read.fingerprint();
    Instant mtime = Times.truncate(Instant.ofEpochSecond(0, fp.modifiedNanos()));
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      return failed(location, fp, "the file is not UTF-8 text");
    }
    GramParser.Result parsed = GramParser.parse(text);
    if (parsed instanceof GramParser.Failure f) {
      DocSnapshot stateOnly = stateAboveDamagedHistory(location, fp, text, f);
      return stateOnly != null ? stateOnly : failed(location, fp, "line " + f.line() + ": " + f.message());
    }
    GramFile gf = ((GramParser.Success) parsed).file();
    return fromFile(location, gf, fp, mtime);
  }

  static DocSnapshot fromFile(VaultPath location, GramFile gf, FileFingerprint fp, Instant mtime) {
    GramDocument top = gf.state();
    String topText = GramWriter.write(top);
    String topHash = Hashes.sha256(topText);
    List<String> topLines = LineDiff.lines(topText);
    if (!gf.hasHistory()) {
      Revision rev0 =
          HistoryCodec.sealed(
              null,
              new Revision(
                  0,
                  mtime,
                  null,
                  Revision.IMPORT,
                  Revision.IMPORT,
                  null,
                  null,
                  StateDiff.changes(null, top),
                  LineDiff.diff(List.of(), topLines),
                  topHash,
                  ""));
      History h = History.first(rev0, topLines);
      return new DocSnapshot(location.path(), location, top, h, 0, topHash, fp, 0, null);
    }
    History history;
    try {
      history = History.verify(gf.history(), gf.headRev(), gf.headChain());
    } catch (IntegrityException e) {
      // The state on top is the revision the @history line names, whatever is left below it.
      int rev = gf.headRev();
      return new DocSnapshot(
          location.path(), location, top, null, rev, topHash, fp, gf.history().size(), e.getMessage());
    }
    Revision head = history.head();
    int persisted = history.revisions().size();
    if (head.stateHash().equals(topHash)) {
      return new DocSnapshot(location.path(), location, top, history, head.rev(), topHash, fp, persisted, null);
    }
    // Edited by another program: adopt the edit as a revision of its own.
    GramDocument before;
    try {
      before = history.stateAt(head.rev());
    } catch (IntegrityException e) {
      return new DocSnapshot(
          location.path(), location, top, null, head.rev(), topHash, fp, persisted, e.getMessage());
    }
    Revision external = externalRevision(history, before, top, topLines, topHash, mtime);
    History adopted = history.append(external, topLines);
    return new DocSnapshot(
        location.path(), location, top, adopted, external.rev(), topHash, fp, persisted, null);
  }

  /**
   * The revision that adopts an edit made by another program: {@code top} (canonical lines {@code
   * topLines}, hash {@code topHash}) following the head of {@code history}, whose state is {@code
   * before}. Recorded at {@code seen}, or at the head's time if that is later.
   */
  static Revision externalRevision(
      History history, GramDocument before, GramDocument top, List<String> topLines, String topHash, Instant seen) {
    Revision head = history.head();
    Instant at = seen.isAfter(head.recordedAt()) ? seen : head.recordedAt();
    return HistoryCodec.sealed(
        head.chain(),
        new Revision(
            head.rev() + 1,
            at,
            null,
            Revision.EXTERNAL,
            Revision.EXTERNAL,
            null,
            null,
            StateDiff.changes(before, top),
            LineDiff.diff(history.headLines(), topLines),
            topHash,
            ""));
  }

  /**
   * A file whose history section is cut or damaged but whose state section above it is whole: the
   * state stays readable and writes are refused, as the format's §9 says, with a reason a person
   * can act on. Null when the damage is in the state section itself.
   */
  private static DocSnapshot stateAboveDamagedHistory(
      VaultPath location, FileFingerprint fp, String text, GramParser.Failure f) {
    int at = text.indexOf("\n@history ");
    if (at < 0) {
      return null;
    }
    int historyLine = 2 + (int) text.chars().limit(at).filter(c -> c == '\n').count();
    if (f.line() < historyLine) {
      return null;
    }
    GramParser.Result state = GramParser.parse(text.substring(0, at + 1));
    if (!(state instanceof GramParser.Success ok) || ok.file().hasHistory()) {
      return null;
    }
    GramDocument top = ok.file().state();
    int end = text.indexOf('\n', at + 1);
    String[] head = text.substring(at + 1, end < 0 ? text.length() : end).split(" ");
    int rev = 0;
    if (head.length >= 2) {
      try {
        rev = Integer.parseInt(head[1]);
      } catch (NumberFormatException e) {
        rev = 0; // the head line is damaged too: the revision is unknown
      }
    }
    String why = "the history is damaged (line " + f.line() + ": " + f.message() + "); the current state above it"
        + " is readable, past revisions are not, and writes are refused until the file is repaired or restored";
    return new DocSnapshot(
        location.path(), location, top, null, rev, Hashes.sha256(GramWriter.write(top)), fp, 0, why);
  }

  private static DocSnapshot failed(VaultPath location, FileFingerprint fp, String why) {
    return new DocSnapshot(location.path(), location, null, null, 0, null, fp, 0, why);
  }
}
