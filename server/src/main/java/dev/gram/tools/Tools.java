package dev.gram.tools;

import dev.gram.tools.spi.Tool;
import dev.gram.tools.spi.ToolRegistry;
import dev.gram.tools.support.GramContext;
import java.util.ArrayList;
import java.util.List;

/** The server's tools, built on one {@link GramContext}. */
public final class Tools {
  private Tools() {}

  public static ToolRegistry registry(GramContext ctx) {
    List<Tool> tools = new ArrayList<>();
    tools.add(new GramProfile(ctx));
    tools.add(new GramProjects(ctx));
    tools.add(new GramCreate(ctx));
    tools.add(new GramPatch(ctx));
    tools.add(new GramRecall(ctx));
    tools.add(new GramList(ctx));
    tools.add(new GramGet(ctx));
    tools.add(new GramContextTool(ctx));
    tools.add(new GramRelations(ctx));
    tools.add(new GramBrief(ctx));
    tools.add(new GramRead(ctx));
    tools.add(new GramChanges(ctx));
    tools.add(new GramRange(ctx));
    tools.add(new GramState(ctx));
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
