package dev.gram.tools;

import java.util.ArrayList;
import java.util.List;

/** The server's tools, built on one {@link GramContext}. */
public final class Tools {
  private Tools() {}

  public static ToolRegistry registry(GramContext ctx) {
    List<Tool> tools = new ArrayList<>();
    tools.add(new GramList(ctx));
    tools.add(new GramGet(ctx));
    tools.add(new GramContextTool(ctx));
    tools.add(new GramRelations(ctx));
    tools.add(new GramBrief(ctx));
    tools.add(new GramRead(ctx));
    tools.add(new GramChanges(ctx));
    tools.add(new GramRange(ctx));
    tools.add(new GramState(ctx));
    return new ToolRegistry(tools);
  }
}
