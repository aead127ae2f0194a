package dev.gram.server.cli;

import dev.gram.access.Approval;
import dev.gram.access.Approvals;
import dev.gram.auth.AgentsFile;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code agents}: the agents file of a shared server. {@code add} creates an agent with a new
 * random token, printed once on stdout (the file keeps only its digest); {@code list} shows the
 * agents and their approvals; {@code revoke} removes one. The file is rewritten atomically, and a
 * server running with {@code --agents} on it picks the change up within a second.
 */
@Command(
    name = "agents",
    mixinStandardHelpOptions = true,
    header = "the agents file of a shared server: add, list, revoke",
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
        "Manages the file given to 'serve --agents': each agent's name, the SHA-256 digest of its token",
        "(never the token) and its approvals (folders with read or write; * is everything).",
        "A running server re-reads the file every second: no restart is needed.",
        "Exit status: 0 done, 1 the file is bad or the change is not possible, 2 bad command line.",
        ""},
    subcommands = {AgentsCommand.Add.class, AgentsCommand.ListAgents.class, AgentsCommand.Revoke.class})
final class AgentsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "give a command: add, list or revoke");
  }

  /** The file every subcommand works on. */
  static final class FileArg {
    @Option(names = "--agents", paramLabel = "<file>", required = true,
        description = "the agents file (created by the first add)")
    Path file;

    AgentsFile read(boolean mayBeMissing) throws AgentsFile.BadFile {
      return mayBeMissing && !Files.exists(file) ? AgentsFile.empty() : AgentsFile.read(file);
    }
  }

  /** A change to the file that may be refused: one line on stderr and exit 1 when it is. */
  interface Change {
    void run() throws AgentsFile.BadFile, java.io.IOException;
  }

  static int attempt(CommandSpec spec, Change change) throws java.io.IOException {
    try {
      change.run();
      return Exit.OK;
    } catch (AgentsFile.BadFile e) {
      spec.commandLine().getErr().println("gram-mcp: " + e.getMessage());
      return Exit.FAILED;
    }
  }

  @Command(
      name = "add",
      mixinStandardHelpOptions = true,
      header = "add an agent and print its new token once",
      sortOptions = false,
      description = {
          "Adds NAME with a new random token and the approvals given, prints the token once on stdout",
          "(keep it: the file holds only its digest), and says on stderr what the agent may reach.",
          "Example: agents add planner --approve project-a=write --approve shared=read --agents agents.json",
          ""})
  static final class Add implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin FileArg agents;
    @Mixin LogOptions log;

    @Parameters(index = "0", paramLabel = "NAME", description = "the agent's name, as revisions will record it")
    String name;

    @Option(names = "--approve", paramLabel = "<folder>=read|write", required = true,
        description = "a folder the agent may read or write (* for the whole vault); repeatable")
    List<String> approve = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
      List<Approval> approvals = new ArrayList<>();
      for (String a : approve) {
        try {
          approvals.add(Approval.parse(a));
        } catch (IllegalArgumentException e) {
          throw new ParameterException(spec.commandLine(), "--approve: " + e.getMessage());
        }
      }
      String token = AgentsFile.newToken();
      AgentsFile.Agent agent =
          new AgentsFile.Agent(name, AgentsFile.digest(token), Approvals.of(approvals), AgentsFile.now());
      int added = attempt(spec, () -> {
        AgentsFile next = agents.read(true).with(agent);
        // The result must read back as a good file (the name's rules, above all) before it is written.
        AgentsFile.parse(agents.file, next.toJson().encode().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        next.write(agents.file);
      });
      if (added != Exit.OK) {
        return added;
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(token);
      out.flush();
      spec.commandLine().getErr().println("gram-mcp: added " + name + " (" + agent.approvals() + ") to "
          + agents.file + "; the token above is shown only now");
      return Exit.OK;
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      header = "the agents and their approvals",
      description = {"One line per agent: its name, its approvals, when it was added. Never a token.", ""})
  static final class ListAgents implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin FileArg agents;
    @Mixin LogOptions log;

    @Option(names = "--json", description = "print the file's agents as JSON (digests included)")
    boolean json;

    @Override
    public Integer call() throws java.io.IOException {
      PrintWriter out = spec.commandLine().getOut();
      int listed = attempt(spec, () -> {
        AgentsFile file = agents.read(false);
        if (json) {
          out.println(file.toJson().encodePrettily());
        } else {
          for (AgentsFile.Agent a : file.agents()) {
            out.println(String.format("%-24s %s%s", a.name(), a.approvals(),
                a.added() == null ? "" : "  (added " + a.added() + ")"));
          }
        }
      });
      out.flush();
      return listed;
    }
  }

  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      header = "remove an agent: its token stops working",
      description = {"Removes NAME from the file; a server running on it refuses the token within a second.", ""})
  static final class Revoke implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin FileArg agents;
    @Mixin LogOptions log;

    @Parameters(index = "0", paramLabel = "NAME", description = "the agent to remove")
    String name;

    @Override
    public Integer call() throws Exception {
      int revoked = attempt(spec, () -> agents.read(false).without(name).write(agents.file));
      if (revoked == Exit.OK) {
        spec.commandLine().getErr().println("gram-mcp: revoked " + name + " in " + agents.file);
      }
      return revoked;
    }
  }
}
