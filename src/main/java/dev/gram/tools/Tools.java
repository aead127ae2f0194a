package dev.gram.tools;

import java.util.ArrayList;
import java.util.List;

/** The server's tools, built on one {@link GramContext}. */
public final class Tools {
  private Tools() {}

  public static ToolRegistry registry(GramContext ctx) {
    List<Tool> tools = new ArrayList<>();
    tools.add(new GramProfile());
    tools.add(new GramProjects(ctx));
    tools.add(new GramCreate(ctx));
    tools.add(new GramPatch(ctx));
    List<String> names = new ArrayList<>();
    for (Tool t : tools) {
      names.add(t.name());
    }
    names.add("gram_capabilities");
    names.sort(java.util.Comparator.comparingInt(n -> {
      int i = ToolRegistry.CONTRACT_ORDER.indexOf(n);
      return i < 0 ? Integer.MAX_VALUE : i;
    }));
    tools.add(new GramCapabilities(ctx, names));
    return new ToolRegistry(tools);
  }
}
