package dev.gram.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.Contract;
import dev.gram.tools.spi.ToolRegistry;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** The schemas the server publishes are the contract's, byte for byte in meaning and order. */
class ContractSchemasTest {

  @Test
  void everyBundledSchemaEqualsTheContracts() {
    JsonObject tools = Contract.tools();
    assertThat(tools.fieldNames()).hasSize(15);
    for (String name : tools.fieldNames()) {
      assertThat(ToolSchemas.load(name)).as(name).isEqualTo(Contract.inputSchema(name));
    }
  }

  @Test
  void theRegistryOrderIsTheContractOrder() {
    assertThat(ToolRegistry.CONTRACT_ORDER).containsExactlyElementsOf(Contract.toolNames());
  }
}
