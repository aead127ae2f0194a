package dev.gram.server.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --vault DIR} of the operator's commands: required, and it must be an existing folder. */
final class VaultArg {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--vault", paramLabel = "<dir>", required = true, description = "the vault folder")
  Path vault;

  /** The vault folder, absolute; a usage error (exit 2) when it is missing or a file. */
  Path existing() {
    Path v = vault.toAbsolutePath().normalize();
    if (!Files.exists(v)) {
      throw new ParameterException(spec.commandLine(), "no vault at " + v + ": --vault names no folder");
    }
    if (!Files.isDirectory(v)) {
      throw new ParameterException(spec.commandLine(), "the vault " + v + " is a file, not a folder");
    }
    return v;
  }

  /** The vault folder, absolute, created when missing (a file is still a usage error). */
  Path orCreate() throws java.io.IOException {
    Path v = vault.toAbsolutePath().normalize();
    if (Files.exists(v) && !Files.isDirectory(v)) {
      throw new ParameterException(spec.commandLine(), "the vault " + v + " is a file, not a folder");
    }
    return Files.createDirectories(v);
  }
}
