package dev.gram.server.cli;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code .gram} files of a vault folder, found by the same rules as the server's scan: hidden
 * files and folders (the index's {@code .gram-index} among them) and top-level {@code @} folders
 * are not part of the vault, and a temporary file of an interrupted write is not a document.
 */
final class VaultFiles {
  /** One document file: its path as agents name it ({@code a/b.gram}) and where it is. */
  record DocFile(String path, Path file) {}

  /** What a walk found: the documents, and temporary files a crash left. */
  record Listing(List<DocFile> documents, List<Path> leftovers) {}

  private VaultFiles() {}

  static Listing list(Path root) throws IOException {
    List<DocFile> docs = new ArrayList<>();
    List<Path> leftovers = new ArrayList<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        if (dir.equals(root)) {
          return FileVisitResult.CONTINUE;
        }
        String name = dir.getFileName().toString();
        boolean reserved = dir.getParent().equals(root) && name.startsWith("@");
        return name.startsWith(".") || reserved ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        String name = file.getFileName().toString();
        if (name.startsWith(".") && name.contains(".tmp-")) {
          leftovers.add(file);
        } else if (attrs.isRegularFile() && name.endsWith(".gram") && !name.startsWith(".")) {
          docs.add(new DocFile(root.relativize(file).toString().replace('\\', '/'), file));
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        return FileVisitResult.CONTINUE;
      }
    });
    docs.sort(java.util.Comparator.comparing(DocFile::path));
    return new Listing(docs, leftovers);
  }
}
