package dev.gram.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** Which era serves a request: the version in its _meta first, then its channel's handshake. */
class RequestEraTest {

  private static JsonRpc.Request request(Object version) {
    JsonObject params = new JsonObject();
    if (version != null) {
      params.put("_meta", new JsonObject().put(MetaKeys.PROTOCOL_VERSION, version));
    }
    return new JsonRpc.Request(1, "tools/list", params);
  }

  private static Channel channel(boolean handshake) {
    Channel ch = new Channel("stdio", "t", m -> {});
    if (handshake) {
      ch.handshake(new Channel.Handshake("2025-11-25", null, new JsonObject()));
    }
    return ch;
  }

  private static int refusalCode(RequestEra era) {
    assertThat(era).isInstanceOf(RequestEra.Refused.class);
    Reply reply = ((RequestEra.Refused) era).reply();
    assertThat(((Reply.Error) reply).kind()).isEqualTo(Reply.ErrorKind.INVALID_MESSAGE);
    return JsonRpc.errorCode(reply.message());
  }

  @Test
  void aModernVersionWinsEvenOnAChannelWithAHandshake() {
    assertThat(RequestEra.of(request("2026-07-28"), channel(true))).isInstanceOf(RequestEra.Modern.class);
    assertThat(RequestEra.of(request("2026-07-28"), channel(false))).isInstanceOf(RequestEra.Modern.class);
  }

  @Test
  void withoutAVersionTheHandshakeDecides() {
    assertThat(RequestEra.of(request(null), channel(true))).isInstanceOf(RequestEra.Legacy.class);
    assertThat(RequestEra.of(request(null), channel(false))).isInstanceOf(RequestEra.Unannounced.class);
  }

  @Test
  void aLegacyVersionNeedsTheHandshake() {
    assertThat(RequestEra.of(request("2025-06-18"), channel(true))).isInstanceOf(RequestEra.Legacy.class);
    assertThat(refusalCode(RequestEra.of(request("2025-06-18"), channel(false)))).isEqualTo(JsonRpc.INVALID_REQUEST);
  }

  @Test
  void unknownAndMistypedVersionsAreRefused() {
    assertThat(refusalCode(RequestEra.of(request("1999-12-31"), channel(true))))
        .isEqualTo(JsonRpc.UNSUPPORTED_PROTOCOL_VERSION);
    assertThat(refusalCode(RequestEra.of(request(20260728), channel(true)))).isEqualTo(JsonRpc.INVALID_PARAMS);
  }
}
