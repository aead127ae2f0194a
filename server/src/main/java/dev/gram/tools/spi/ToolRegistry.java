package dev.gram.tools.spi;

import dev.gram.access.Identity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The server's tools in the order {@code tools/list} publishes them. */
public final class ToolRegistry {
  /** The contract's order of the 15 tools. */
  public static final List<String> CONTRACT_ORDER =
      List.of(
          "gram_profile",
          "gram_projects",
          "gram_capabilities",
          "gram_recall",
          "gram_list",
          "gram_get",
          "gram_context",
          "gram_relations",
          "gram_brief",
          "gram_read",
          "gram_changes",
          "gram_range",
          "gram_state",
          "gram_create",
          "gram_patch");

  /**
   * Gives the tool that serves one caller: the tool itself for a caller with every approval, a
   * copy of it reading and writing through that caller's gate otherwise.
   */
  public interface Binder {
    Tool bind(Tool tool, Identity caller);
  }

  private final Map<String, Tool> byName;
  private final Binder binder;

  /** Tools that serve every caller alike (tests, tools that touch no document). */
  public ToolRegistry(List<? extends Tool> tools) {
    this(tools, (tool, caller) -> tool);
  }

  public ToolRegistry(List<? extends Tool> tools, Binder binder) {
    this.binder = binder;
    Map<String, Tool> map = new LinkedHashMap<>();
    List<Tool> sorted = new ArrayList<>(tools);
    sorted.sort(
        (a, b) -> Integer.compare(order(a.name()), order(b.name())));
    for (Tool t : sorted) {
      if (map.put(t.name(), t) != null) {
        throw new IllegalArgumentException("duplicate tool " + t.name());
      }
    }
    this.byName = Collections.unmodifiableMap(map);
  }

  private static int order(String name) {
    int i = CONTRACT_ORDER.indexOf(name);
    return i < 0 ? Integer.MAX_VALUE : i;
  }

  public List<Tool> tools() {
    return List.copyOf(byName.values());
  }

  /** The tool of that name, or {@code null}. */
  public Tool get(String name) {
    return byName.get(name);
  }

  /** The tool of that name as it serves {@code caller}, or {@code null}. */
  public Tool get(String name, Identity caller) {
    Tool tool = byName.get(name);
    return tool == null ? null : binder.bind(tool, caller);
  }
}
