package dev.gram.tools;

import java.util.ArrayList;
import java.util.List;

/** The server's tools, built on one {@link GramContext}. */
public final class Tools {
  private Tools() {}

  public static ToolRegistry registry(GramContext ctx) {
    List<Tool> tools = new ArrayList<>();
    tools.add(new GramRecall(ctx));
    return new ToolRegistry(tools);
  }
}
