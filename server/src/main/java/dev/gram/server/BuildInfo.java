package dev.gram.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The version this jar was built as, read from {@code build.properties}, which Maven filters with
 * {@code ${project.version}}. Running from classes that were not filtered (an IDE) gives {@code dev}.
 */
public final class BuildInfo {
  private static final String VERSION = load();

  private BuildInfo() {}

  public static String version() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version", "").strip();
        if (!v.isEmpty() && !v.startsWith("${")) {
          return v;
        }
      }
    } catch (IOException e) {
      // fall through: the manifest, then "dev"
    }
    String v = BuildInfo.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }
}
