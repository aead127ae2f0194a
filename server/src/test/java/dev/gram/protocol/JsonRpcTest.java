package dev.gram.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class JsonRpcTest {

  private static int code(JsonRpc.Message m) {
    assertThat(m).isInstanceOf(JsonRpc.Invalid.class);
    return ((JsonRpc.Invalid) m).error().getJsonObject("error").getInteger("code");
  }

  @Test
  void classifiesEveryKindOfMessage() {
    assertThat(JsonRpc.parse("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"}"))
        .isEqualTo(new JsonRpc.Request("a", "ping", new JsonObject()));
    assertThat(JsonRpc.parse("{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"x\":1}}"))
        .isEqualTo(new JsonRpc.Notification("n", new JsonObject().put("x", 1)));
    assertThat(JsonRpc.parse("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}")).isEqualTo(new JsonRpc.Response(3));
  }

  @Test
  void faultsCarryTheRightCodeAndTheIdWhenReadable() {
    assertThat(code(JsonRpc.parse("nope"))).isEqualTo(JsonRpc.PARSE_ERROR);
    assertThat(code(JsonRpc.parse("[]"))).isEqualTo(JsonRpc.INVALID_REQUEST);
    assertThat(code(JsonRpc.parse("42"))).isEqualTo(JsonRpc.INVALID_REQUEST);
    assertThat(code(JsonRpc.parse("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"x\"}"))).isEqualTo(JsonRpc.INVALID_REQUEST);
    assertThat(code(JsonRpc.parse("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"x\"}"))).isEqualTo(JsonRpc.INVALID_REQUEST);
    assertThat(code(JsonRpc.parse("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"x\"}"))).isEqualTo(JsonRpc.INVALID_REQUEST);
    assertThat(code(JsonRpc.parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}"))).isEqualTo(JsonRpc.INVALID_REQUEST);
    JsonRpc.Message badParams = JsonRpc.parse("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"x\",\"params\":[1]}");
    assertThat(code(badParams)).isEqualTo(JsonRpc.INVALID_PARAMS);
    assertThat(((JsonRpc.Invalid) badParams).error().getValue("id")).isEqualTo(5);
    JsonObject parse = ((JsonRpc.Invalid) JsonRpc.parse("{")).error();
    assertThat(parse.containsKey("id")).as("id: null is written out").isTrue();
  }

  @Test
  void idsGoBackExactlyAsTheyCameOrTheRequestIsRefused() {
    for (String id : new String[] {"1e400", "1E2", "-0", "1.5", "-0.0"}) {
      JsonRpc.Message m = JsonRpc.parse("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\"}");
      assertThat(m).as(id).isInstanceOf(JsonRpc.Invalid.class);
      JsonObject error = ((JsonRpc.Invalid) m).error();
      assertThat(error.getJsonObject("error").getInteger("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
      assertThat(error.containsKey("id")).isTrue();
      assertThat(error.getValue("id")).isNull();
    }
    for (String id : new String[] {"0", "7", "-3", "123456789012345678901234567890", "\"x\""}) {
      String line = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\"}";
      JsonRpc.Message m = JsonRpc.parse(line);
      assertThat(m).as(id).isInstanceOf(JsonRpc.Request.class);
      String echoed = JsonRpc.result(((JsonRpc.Request) m).id(), new JsonObject()).encode();
      assertThat(echoed).as(id).contains("\"id\":" + id + ",");
    }
  }
}
