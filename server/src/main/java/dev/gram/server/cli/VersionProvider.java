package dev.gram.server.cli;

import dev.gram.server.BuildInfo;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the version Maven built this jar as. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"gram-mcp " + BuildInfo.version()};
  }
}
