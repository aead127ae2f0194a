package dev.gram.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which archive {@code java -jar gram-mcp.jar} restarts itself with: only one the training run
 * made for this JVM and this jar, newer than the jar; the ahead-of-time cache before the class-data
 * archive on a JVM that maps one (JDK 25 and later). A wrong choice costs a second JVM start for
 * nothing (the JVM refuses an archive of another JVM or jar), so each refusal is checked here.
 */
class ArchiveRelaunchTest {
  private static final boolean AOT = Runtime.version().feature() >= 25;

  @TempDir Path dir;
  private Path jar;

  @BeforeEach
  void aJar() throws Exception {
    jar = Files.writeString(dir.resolve("gram-mcp.jar"), "not really a jar");
    Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2026-12-01T00:00:00Z")));
  }

  private void trained(Path archive, String note) throws Exception {
    Files.writeString(archive, "archive");
    Files.writeString(ArchiveRelaunch.jvmFile(archive), note + "\n");
  }

  @Test
  void nothingBesideTheJarMeansNoRestart() {
    assertThat(ArchiveRelaunch.archiveOption(jar)).isEmpty();
  }

  @Test
  void aClassArchiveForThisJvmIsMapped() throws Exception {
    trained(ArchiveRelaunch.classArchive(jar), ArchiveRelaunch.jvm(jar));
    assertThat(ArchiveRelaunch.archiveOption(jar))
        .contains("-XX:SharedArchiveFile=" + ArchiveRelaunch.classArchive(jar));
  }

  @Test
  void anAheadOfTimeCacheIsMappedOnlyWhereTheJvmHasThem() throws Exception {
    trained(ArchiveRelaunch.aotCache(jar), ArchiveRelaunch.jvm(jar));
    assertThat(ArchiveRelaunch.archiveOption(jar))
        .isEqualTo(AOT ? Optional.of("-XX:AOTCache=" + ArchiveRelaunch.aotCache(jar)) : Optional.empty());
  }

  @Test
  void theAheadOfTimeCacheComesFirstAndAClassArchiveIsTheFallBack() throws Exception {
    trained(ArchiveRelaunch.aotCache(jar), ArchiveRelaunch.jvm(jar));
    trained(ArchiveRelaunch.classArchive(jar), ArchiveRelaunch.jvm(jar));
    assertThat(ArchiveRelaunch.archiveOption(jar)).contains(AOT
        ? "-XX:AOTCache=" + ArchiveRelaunch.aotCache(jar)
        : "-XX:SharedArchiveFile=" + ArchiveRelaunch.classArchive(jar));
  }

  @Test
  void anArchiveOfAnotherJvmOrJarIsLeftAlone() throws Exception {
    trained(ArchiveRelaunch.aotCache(jar), "17.0.1+12 /opt/another-jdk " + jar.toAbsolutePath());
    trained(ArchiveRelaunch.classArchive(jar), ArchiveRelaunch.jvm(dir.resolve("elsewhere/gram-mcp.jar")));
    assertThat(ArchiveRelaunch.archiveOption(jar)).isEmpty();
  }

  @Test
  void anArchiveOlderThanTheJarIsLeftAlone() throws Exception {
    trained(ArchiveRelaunch.aotCache(jar), ArchiveRelaunch.jvm(jar));
    trained(ArchiveRelaunch.classArchive(jar), ArchiveRelaunch.jvm(jar));
    // A rebuilt jar: both archives are of the one before.
    Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(60)));
    assertThat(ArchiveRelaunch.archiveOption(jar)).isEmpty();
  }

  @Test
  void anArchiveWithoutItsNoteIsLeftAlone() throws Exception {
    Files.writeString(ArchiveRelaunch.classArchive(jar), "archive");
    Files.writeString(ArchiveRelaunch.aotCache(jar), "archive");
    assertThat(ArchiveRelaunch.archiveOption(jar)).isEmpty();
  }
}
