package dev.gram.tools;

import dev.gram.gate.Gate;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.spi.ToolRegistry;
import dev.gram.tools.support.GramContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The server's tools, built on one {@link GramContext}. A caller with every approval is served by
 * these very tools; a restricted caller's call is served by a fresh instance of the same tool built
 * on {@link GramContext#within} that caller, so every document it touches passes the caller's gate.
 * Tools keep no state between calls, so a fresh instance costs a few allocations.
 */
public final class Tools {
  private Tools() {}

  public static ToolRegistry registry(GramContext ctx) {
    Map<String, Function<GramContext, Tool>> builders = new LinkedHashMap<>();
    builders.put("gram_profile", GramProfile::new);
    builders.put("gram_projects", GramProjects::new);
    builders.put("gram_create", GramCreate::new);
    builders.put("gram_patch", GramPatch::new);
    builders.put("gram_recall", GramRecall::new);
    builders.put("gram_list", GramList::new);
    builders.put("gram_get", GramGet::new);
    builders.put("gram_context", GramContextTool::new);
    builders.put("gram_relations", GramRelations::new);
    builders.put("gram_brief", GramBrief::new);
    builders.put("gram_read", GramRead::new);
    builders.put("gram_changes", GramChanges::new);
    builders.put("gram_range", GramRange::new);
    builders.put("gram_state", GramState::new);
    List<String> names = new ArrayList<>(builders.keySet());
    names.add("gram_capabilities");
    names.sort(java.util.Comparator.comparingInt(n -> {
      int i = ToolRegistry.CONTRACT_ORDER.indexOf(n);
      return i < 0 ? Integer.MAX_VALUE : i;
    }));
    builders.put("gram_capabilities", c -> new GramCapabilities(c, names));
    List<Tool> tools = new ArrayList<>();
    builders.values().forEach(b -> tools.add(b.apply(ctx)));
    return new ToolRegistry(
        tools,
        (tool, caller) ->
            Gate.unrestricted(caller) ? tool : builders.get(tool.name()).apply(ctx.within(caller)));
  }
}
