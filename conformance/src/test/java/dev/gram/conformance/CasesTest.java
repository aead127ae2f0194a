package dev.gram.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The case files themselves: they load, and they cover what issue 7 asks — every tool's real
 * request from the contract, and one case for each error code and message a local server can
 * produce. Runs without a server, so a broken case file fails the unit tests, not a CI run later.
 */
class CasesTest {
  static Path dir() {
    return Path.of(System.getProperty("gram.conformance", "conformance")).resolve("cases");
  }

  static List<Cases.CaseFile> files() {
    return Cases.load(dir());
  }

  @Test
  void everyCaseFileLoadsWithUniqueNamesAndKnownNeeds() {
    Set<String> names = new HashSet<>();
    for (Cases.CaseFile f : files()) {
      for (Cases.Case c : f.cases()) {
        assertThat(names.add(c.name())).as("case names are unique: %s", c.name()).isTrue();
        assertThat(Runner.KNOWN_NEEDS).as("needs of %s", c.name()).containsAll(c.needs());
        for (JsonNode s : c.steps()) {
          if (s.has("edit")) {
            assertThat(c.needs()).as("%s edits the vault, so it needs vault-dir", c.name()).contains("vault-dir");
          }
        }
      }
    }
    assertThat(names).hasSizeGreaterThan(60);
  }

  @Test
  void eachToolHasItsFileWhoseFirstCallOfItIsTheContractsRealRequest() {
    JsonNode tools = Json.read(SharedFiles.require(SharedFiles.TOOLS_JSON)).get("tools");
    for (Map.Entry<String, JsonNode> tool : tools.properties()) {
      Path file = dir().resolve(tool.getKey() + ".json");
      assertThat(file).as("one case file per tool").exists();
      Cases.CaseFile f = files().stream().filter(x -> x.name().equals(tool.getKey())).findFirst().orElseThrow();
      JsonNode args = null;
      List<JsonNode> steps = new ArrayList<>();
      f.setup().forEach(steps::add);
      for (Cases.Case c : f.cases()) {
        if (c.name().endsWith("/contract-request")) {
          c.steps().forEach(steps::add);
        }
      }
      for (JsonNode s : steps) {
        if (tool.getKey().equals(s.path("call").asText())) {
          args = s.get("args");
          break;
        }
      }
      assertThat(args).as("%s calls %s", file, tool.getKey()).isNotNull();
      assertThat(sameRequest(tool.getValue().get("exampleRequest"), args))
          .as("%s sends the contract's request %s (placeholders only where the contract has paths, hashes and ids), not %s",
              tool.getKey(), tool.getValue().get("exampleRequest"), args)
          .isTrue();
    }
  }

  @Test
  void theIntegrationTestsToolListIsTheContracts() {
    JsonNode tools = Json.read(SharedFiles.require(SharedFiles.TOOLS_JSON)).get("tools");
    List<String> names = new ArrayList<>();
    tools.fieldNames().forEachRemaining(names::add);
    assertThat(ConformanceIT.CONTRACT_TOOLS).as("ConformanceIT.CONTRACT_TOOLS, in the contract's order").isEqualTo(names);
  }

  /**
   * The contract's request, with a placeholder allowed wherever a run must differ from the
   * contract's own run (paths, hashes, request ids).
   */
  private static boolean sameRequest(JsonNode contract, JsonNode ours) {
    if (ours.isTextual() && ours.asText().contains("${") && contract.isTextual()) {
      return true;
    }
    if (contract.isObject()) {
      if (!ours.isObject() || contract.size() != ours.size()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> e : contract.properties()) {
        if (!ours.has(e.getKey()) || !sameRequest(e.getValue(), ours.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (contract.isArray()) {
      if (!ours.isArray() || contract.size() != ours.size()) {
        return false;
      }
      for (int i = 0; i < contract.size(); i++) {
        if (!sameRequest(contract.get(i), ours.get(i))) {
          return false;
        }
      }
      return true;
    }
    return contract.equals(ours);
  }

  @Test
  void everyRequiredErrorHasItsCase() {
    Set<String> seen = new HashSet<>();
    for (Cases.CaseFile f : files()) {
      for (Cases.Case c : f.cases()) {
        for (JsonNode s : c.steps()) {
          JsonNode e = s.path("expect").path("error");
          if (!e.isMissingNode()) {
            seen.add(e.path("code").asText() + ": " + e.path("message").asText(""));
            seen.add(e.path("code").asText());
          }
        }
      }
    }
    assertThat(seen)
        .contains(
            "E_ARGUMENT",
            "E_PATH: Absolute paths are outside the approved folder",
            "E_PATH: Path does not start with a mounted collection",
            "E_PATH: Path is outside the approved folders",
            "E_PATH: Path is outside an approved folder or hidden",
            "E_PATH: Vault mounts support writes only to top-level documents",
            "E_READ_ONLY: This mounted folder is read-only to agents",
            "STALE_READ: The document changed while it was read; read again",
            "STALE_CURSOR: The documents changed since this cursor; list again",
            "E_CURSOR: Invalid list cursor",
            "E_CURSOR: Invalid section cursor",
            "E_CURSOR: Invalid changes cursor",
            "E_CURSOR: Invalid context cursor",
            "E_CURSOR: Invalid state cursor",
            "E_REQUEST_REUSE: request_id belongs to another intent",
            "E_REQUEST_ID: Nonempty request_id required",
            "E_CAS_REQUIRED: base_revision required",
            "E_CAS_REQUIRED: Create requires explicit null base_revision",
            "STALE_REVISION: Accepted revision or hash changed",
            "STALE_REVISION: Artifact changed during transaction",
            "STALE_REVISION: Create target already exists",
            "COMMIT_UNKNOWN",
            "E_INTEGRITY",
            "E_CONTEXT_BUDGET",
            "E_TOO_MANY_DOCUMENTS");
  }

  @Test
  void theReadmeNamesEveryCaseFile() throws Exception {
    String readme = Files.readString(dir().getParent().resolve("README.md"));
    for (Cases.CaseFile f : files()) {
      assertThat(readme).as("conformance/README.md describes %s.json", f.name()).contains(f.name() + ".json");
    }
  }
}
