package dev.gram.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The approval decision: what a set of folder approvals lets a caller read, write and name. */
class ApprovalsTest {
  static Approvals of(String... specs) {
    return Approvals.of(java.util.Arrays.stream(specs).map(Approval::parse).toList());
  }

  @Test
  void aFolderCoversItselfAndWhatIsBelowItNeverASiblingWithTheSamePrefix() {
    Approvals a = of("project-a=write");
    assertThat(a.mayWrite("project-a/plan.gram")).isTrue();
    assertThat(a.mayWrite("project-a/deep/er/x.gram")).isTrue();
    assertThat(a.mayRead("project-ab/plan.gram")).isFalse();
    assertThat(a.mayRead("project")).isFalse();
    assertThat(a.mayRead("other/project-a/x.gram")).isFalse();
  }

  @Test
  void approvalsAddUpAndWriteIncludesRead() {
    Approvals a = of("*=read", "project-a=write");
    assertThat(a.access("anything/x.gram")).isEqualTo(Access.READ);
    assertThat(a.access("project-a/x.gram")).isEqualTo(Access.WRITE);
    Approvals b = of("shared=write", "shared=read");
    assertThat(b.access("shared/x.gram")).isEqualTo(Access.WRITE);
    assertThat(b.list()).hasSize(1);
  }

  @Test
  void everythingIsOnlyWriteEverywhere() {
    assertThat(of("*=write").everything()).isTrue();
    assertThat(of("*=read").everything()).isFalse();
    assertThat(Approvals.EVERYTHING.mayWrite("@mounts/team/x.gram")).isTrue();
    assertThat(Approvals.NONE.mayRead("")).isFalse();
    assertThat(Approvals.NONE.mayName("")).isFalse();
  }

  @Test
  void foldersAboveAnApprovalMayBeNamedButNotRead() {
    Approvals a = of("research/notes=read", "@mounts/team/lab=write");
    assertThat(a.mayName("")).isTrue();
    assertThat(a.mayName("research")).isTrue();
    assertThat(a.mayRead("research")).isFalse();
    assertThat(a.mayRead("research/other.gram")).isFalse();
    assertThat(a.mayName("research/notes/sub")).isTrue();
    assertThat(a.mayName("@mounts")).isTrue();
    assertThat(a.mayName("@mounts/team")).isTrue();
    assertThat(a.mayName("@mounts/other")).isFalse();
    assertThat(a.mayName("res")).isFalse();
    assertThat(a.bestWithin("@mounts/team")).isEqualTo(Access.WRITE);
    assertThat(a.best()).isEqualTo(Access.WRITE);
  }

  @Test
  void foldersAreNormalizedAndWhatCouldNeverBeAVaultFolderIsRefused() {
    assertThat(Approval.parse("project-a/=write").folder()).isEqualTo("project-a");
    assertThat(Approval.parse("*=read").folder()).isEmpty();
    assertThat(Approval.parse("@mounts/team/=read").folder()).isEqualTo("@mounts/team");
    for (String bad : List.of("../x=read", "/etc=read", "a//b=read", ".hidden=read", "a\\b=read", "@other/x=read",
        "x=admin", "x", "=read", "a/*=read")) {
      assertThatThrownBy(() -> Approval.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void approvalsReadAsTheyAreWritten() {
    assertThat(of("shared=read", "*=read", "a=write")).hasToString("*=read a=write shared=read");
  }
}
