package dev.gram.server.cli;

import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --log-level}, shared by every command. slf4j-simple reads its level from a system
 * property when the first logger is created, so the option sets the property while the command
 * line is parsed, before anything logs; nothing in this package holds a static logger for that
 * reason.
 */
final class LogOptions {
  static final String PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";
  static final List<String> LEVELS = List.of("error", "warn", "info", "debug", "trace");

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--log-level", paramLabel = "<level>", order = 40,
      description = "error, warn, info, debug or trace (serve: info; the other commands: warn). Logs go to stderr")
  void level(String level) {
    String l = level.toLowerCase(Locale.ROOT);
    if (!LEVELS.contains(l)) {
      throw new ParameterException(spec.commandLine(),
          "--log-level must be one of " + String.join(", ", LEVELS) + ", not " + level);
    }
    System.setProperty(PROPERTY, l);
  }

  /** The level when neither --log-level nor -D set one. */
  static void defaultTo(String level) {
    if (System.getProperty(PROPERTY) == null) {
      System.setProperty(PROPERTY, level);
    }
  }
}
