package dev.gram.server.cli;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** The exit statuses of every command, and how an unexpected failure is put in one line. */
final class Exit {
  static final int OK = 0;
  /** The command ran and found something wrong, or could not do its work. */
  static final int FAILED = 1;
  /** The command line was wrong; nothing was done. */
  static final int USAGE = 2;

  private Exit() {}

  /** One line for an exception, naming the file for the usual file-system failures. */
  static String describe(Throwable e) {
    if (e instanceof AccessDeniedException a) {
      return "permission denied: " + a.getFile();
    }
    if (e instanceof NoSuchFileException n) {
      return "no such file or folder: " + n.getFile();
    }
    if (e instanceof NotDirectoryException n) {
      return "not a folder: " + n.getFile();
    }
    if (e instanceof FileAlreadyExistsException f) {
      return "already exists: " + f.getFile();
    }
    if (e instanceof java.net.ConnectException) {
      return "connection refused: nothing listens there (is the server running?)";
    }
    if (e instanceof java.net.http.HttpTimeoutException) {
      return "no answer in time";
    }
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }
}
