package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Names that only look safe are refused with E_PATH and a reason; honest names still resolve. */
class PathRulesTest {
  @TempDir Path dir;

  @Test
  void namesThatOnlyLookSafeAreRefusedWithAReason() {
    PathResolver paths = new PathResolver(dir, List.of());
    for (String raw : List.of(
        "p/\uD800.gram", "p/x\uDC00.gram", "p/" + "n".repeat(300) + ".gram", "p/a.gram ", "p /a.gram",
        "p./a.gram", "x\u2215..\u2215y.gram", "\uFF0E\uFF0E/x.gram", "p/\u202Egnp.gram", "p/a\u200Bb.gram",
        "%2e%2e/x.gram", "p/%252e.gram", "a/".repeat(600) + "x.gram")) {
      GramException e = catchThrowableOfType(GramException.class, () -> paths.document(raw));
      assertThat(e).as(raw).isNotNull();
      assertThat(e.code()).as(raw).isEqualTo(ErrorCode.E_PATH);
      assertThat(e.getMessage()).isEqualTo(PathResolver.HIDDEN);
      assertThat(e.details().getString("reason")).as(raw).isNotBlank();
    }
  }

  @Test
  void honestNamesStillResolve() {
    PathResolver paths = new PathResolver(dir, List.of());
    for (String raw : List.of("p/my notes.gram", "p/café-2026.gram", "p/数据.gram", "p/a.b.gram", "p/😀.gram", "p/50%.gram")) {
      assertThat(paths.document(raw).document()).as(raw).isTrue();
    }
  }

  @Test
  void aDocumentPathDoesNotEndWithASlash() {
    PathResolver paths = new PathResolver(dir, List.of());
    GramException e = catchThrowableOfType(GramException.class, () -> paths.document("p/a.gram/"));
    assertThat(e.code()).isEqualTo(ErrorCode.E_ARGUMENT);
  }

  @Test
  void linksThatLeaveTheVaultDangleOrGoRoundAreRefusedAsOutside() throws Exception {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    Files.createSymbolicLink(vault.resolve("out"), elsewhere);
    Files.createSymbolicLink(vault.resolve("dangling.gram"), dir.resolve("missing.gram"));
    Files.createSymbolicLink(vault.resolve("dangling"), dir.resolve("missing"));
    Files.createSymbolicLink(vault.resolve("loop-a"), vault.resolve("loop-b"));
    Files.createSymbolicLink(vault.resolve("loop-b"), vault.resolve("loop-a"));
    Files.createDirectories(vault.resolve("p"));
    PathResolver paths = new PathResolver(vault, List.of());
    for (String raw : List.of("out/x.gram", "dangling.gram", "dangling/x.gram", "loop-a/x.gram")) {
      GramException e = catchThrowableOfType(GramException.class, () -> paths.checkLinks(paths.document(raw)));
      assertThat(e).as(raw).isNotNull();
      assertThat(e.code()).as(raw).isEqualTo(ErrorCode.E_PATH);
      assertThat(e.getMessage()).as(raw).isEqualTo(PathResolver.OUTSIDE);
    }
    paths.checkLinks(paths.document("p/new/x.gram"));
    paths.checkLinks(paths.document("p/x.gram"));
  }
}
