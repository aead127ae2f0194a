package dev.gram.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.gram.testing.SchemaOnlyTools;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** Validation against the contract's own schemas, and the messages a caller gets back. */
class ArgumentValidatorTest {
  private final ArgumentValidator validator = new ArgumentValidator(SchemaOnlyTools.all());

  private GramException fail(String tool, JsonObject args) {
    GramException e = catchThrowableOfType(GramException.class, () -> validator.check(tool, args));
    assertThat(e).as(tool + " " + args.encode() + " should be refused").isNotNull();
    assertThat(e.code()).isEqualTo(ErrorCode.E_ARGUMENT);
    return e;
  }

  @Test
  void theContractsExampleRequestsAreValid() {
    JsonObject create = new JsonObject("{\"path\":\"descriptor-fixture/doc.gram\",\"base_revision\":null,\"title\":\"Lunar migration decision\","
        + "\"content\":{\"text\":\"# Descriptor fixture\",\"records\":[{\"type\":\"decision\",\"id\":\"d1\"}]}}");
    assertThatCode(() -> validator.check("gram_create", create)).doesNotThrowAnyException();
    assertThatCode(() -> validator.check("gram_create", create.copy().put("content", "plain text body"))).doesNotThrowAnyException();
    assertThatCode(() -> validator.check("gram_capabilities", new JsonObject())).doesNotThrowAnyException();
    assertThatCode(() -> validator.check("gram_profile", new JsonObject().put("task", "edit"))).doesNotThrowAnyException();
  }

  @Test
  void anUnexpectedKeyIsUnknownArgumentWithTheKey() {
    GramException e = fail("gram_capabilities", new JsonObject().put("verbose", true));
    assertThat(e.getMessage()).isEqualTo("Unknown argument verbose");
    assertThat(e.details().getString("argument")).isEqualTo("verbose");
  }

  @Test
  void aNestedUnexpectedKeyNamesItsPath() {
    JsonObject args = new JsonObject().put("path", "a.gram").put("base_revision", (Object) null).put("title", "t")
        .put("content", new JsonObject().put("text", "x").put("colour", "red"));
    assertThat(fail("gram_create", args).getMessage()).isEqualTo("Unknown argument content.colour");
  }

  @Test
  void aMistypedDeclaredKeyIsNotReportedAsUnknown() {
    GramException e = fail("gram_get", new JsonObject().put("path", 1).put("entity", "d1"));
    assertThat(e.getMessage()).startsWith("Invalid argument path:").contains("Expected string");
  }

  @Test
  void aMissingRequiredKeyIsNamed() {
    assertThat(fail("gram_get", new JsonObject().put("path", "a.gram")).getMessage()).isEqualTo("Missing argument entity");
  }

  @Test
  void schemaConstraintsAreEnforced() {
    JsonObject patch = new JsonObject().put("path", "a.gram").put("base_revision", 0).put("expected_hash", "h")
        .put("request_id", "r").put("operations", new JsonArray());
    assertThat(fail("gram_patch", patch).getMessage()).startsWith("Invalid argument operations");
    assertThat(fail("gram_patch", patch.copy().put("operations", new JsonArray().add(new JsonObject())).put("request_id", "x".repeat(129)))
        .getMessage()).startsWith("Invalid argument request_id");
    assertThat(fail("gram_patch", patch.copy().put("operations", new JsonArray().add(new JsonObject())).put("base_revision", -1))
        .getMessage()).startsWith("Invalid argument base_revision");
    assertThat(fail("gram_profile", new JsonObject().put("task", "dance")).getMessage()).startsWith("Invalid argument task");
    assertThat(fail("gram_create", new JsonObject().put("path", "a.gram").put("base_revision", 0).put("title", "t").put("content", "c"))
        .getMessage()).startsWith("Invalid argument base_revision");
  }
}
