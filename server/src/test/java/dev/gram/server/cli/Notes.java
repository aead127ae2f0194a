package dev.gram.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A folder of real-looking Markdown notes, as a person's notes app leaves them. */
final class Notes {
  private Notes() {}

  static Path write(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("projects"));
    Files.createDirectories(dir.resolve(".obsidian"));
    Files.writeString(dir.resolve("Launch Plan.md"), """
        ---
        title: Launch plan
        tags: [launch, q4]
        owner: "Maria Chen"
        status: draft
        aliases:
          - launch
          - go-live
        ---

        # Launch plan

        We ship the **beta** on the 12th. See [[Risk Register]] and [[Missing Note]].

        ## Tasks

        - [ ] Freeze the API
        - [x] Write the press release
        - [ ] Book the venue for [[Risk Register|the risk review]]
          - [ ] confirm catering

        ## Budget

        | item | cost |
        |------|------|
        | venue | 4,000 |
        | ads | 12,500 |

        ```bash
        - [ ] not a task: this is code
        ./deploy.sh --env prod
        ```

        > Ship it when it is ready, not before.
        """);
    Files.writeString(dir.resolve("projects/risk-register.md"), """
        # Risk Register

        1. Supplier delay
        2. Staff illness

        - [x] Review with legal

        Back to [[Launch Plan]].
        """);
    Files.writeString(dir.resolve("projects/meeting 2026-03-02.markdown"), "Windows line ends.\r\n\r\n- [X] Sent the minutes\r\n");
    Files.writeString(dir.resolve("projects/diagram.png"), "not markdown");
    Files.writeString(dir.resolve(".obsidian/workspace.md"), "# settings, hidden");
    return dir;
  }
}
