package dev.gram.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium for the web view's tests: Debian's {@code chromium} driven by its
 * {@code chromedriver} through Selenium, never a browser Selenium would download. Started with
 * everything that would reach the network off (this machine's network refuses other hosts) and a
 * fresh profile. Where no Chromium can be had, {@link #start} skips the test with one line saying
 * so; nowhere else does a browser test skip.
 *
 * <p>{@link #axe} runs axe-core, its script read from the {@code org.webjars.npm:axe-core} webjar
 * and injected into the page, and returns the violations of the impacts asked for.
 */
public final class Browser {
  private Browser() {}

  /** The browser binary: {@code -Dgram.chromium} or {@code CHROMIUM}, else Debian's. */
  static Path chromium() {
    return Path.of(setting("gram.chromium", "CHROMIUM", "/usr/bin/chromium"));
  }

  static Path chromedriver() {
    return Path.of(setting("gram.chromedriver", "CHROMEDRIVER", "/usr/bin/chromedriver"));
  }

  private static String setting(String property, String env, String dflt) {
    String v = System.getProperty(property);
    if (v == null || v.isBlank()) {
      v = System.getenv(env);
    }
    return v == null || v.isBlank() ? dflt : v;
  }

  /** A new headless Chromium, or the test is skipped when none is installed. */
  public static ChromeDriver start(Path profile) {
    boolean present = Files.isExecutable(chromium()) && Files.isExecutable(chromedriver());
    Assumptions.assumeTrue(present, "browser tests skipped: no Chromium at " + chromium() + " with "
        + chromedriver() + " (apt-get install chromium chromium-driver)");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium().toFile());
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1100,900", "--user-data-dir=" + profile.toAbsolutePath());
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(chromedriver().toFile())
        .usingAnyFreePort()
        .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(30));
    return driver;
  }

  private static volatile String axeScript;

  /** The axe-core script of the webjar on the test classpath. */
  static String axeScript() {
    if (axeScript == null) {
      try (InputStream p = Browser.class.getResourceAsStream("/META-INF/maven/org.webjars.npm/axe-core/pom.properties")) {
        Properties props = new Properties();
        props.load(p);
        String path = "/META-INF/resources/webjars/axe-core/" + props.getProperty("version") + "/axe.min.js";
        try (InputStream in = Browser.class.getResourceAsStream(path)) {
          axeScript = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
      } catch (IOException | NullPointerException e) {
        throw new AssertionError("axe-core webjar not on the test classpath", e);
      }
    }
    return axeScript;
  }

  /**
   * Runs axe-core (WCAG 2 A and AA rules and best practices) on the page now shown and returns its
   * violations of the given impacts, each as {@code "rule (impact): help — target…"}.
   */
  @SuppressWarnings("unchecked")
  public static List<String> axe(ChromeDriver driver, String... impacts) {
    JavascriptExecutor js = driver;
    if (!Boolean.TRUE.equals(js.executeScript("return typeof window.axe === 'object'"))) {
      js.executeScript(axeScript());
    }
    Object result = js.executeAsyncScript(
        "var done = arguments[arguments.length - 1];"
            + "axe.run(document, {resultTypes: ['violations']}).then(function (r) {"
            + "  done(r.violations.map(function (v) {"
            + "    return {id: v.id, impact: v.impact, help: v.help,"
            + "      targets: v.nodes.map(function (n) { return n.target.join(' '); }).slice(0, 5)};"
            + "  }));"
            + "}).catch(function (e) { done([{id: 'axe-error', impact: 'critical', help: String(e), targets: []}]); });");
    List<String> out = new ArrayList<>();
    for (Map<String, Object> v : (List<Map<String, Object>>) result) {
      if (List.of(impacts).contains(String.valueOf(v.get("impact")))) {
        out.add(v.get("id") + " (" + v.get("impact") + "): " + v.get("help") + " — " + v.get("targets"));
      }
    }
    return out;
  }

  /** Saves a screenshot of the page as PNG (for docs/ui.md), creating the folder. */
  public static void screenshot(ChromeDriver driver, Path file) {
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, driver.getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
