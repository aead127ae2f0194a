package dev.gram.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A channel knows a request by its JSON-RPC id as the client wrote it: the same integer is the same
 * request whatever Java type the parser gave it, and a string of the same digits is another one.
 */
class ChannelRequestIdsTest {
  private final Channel channel = new Channel("stdio", "test", message -> {});
  private final List<String> cancelled = new ArrayList<>();

  private Channel.InFlight call(String name) {
    return reason -> cancelled.add(name + ": " + reason);
  }

  @Test
  void anIntegerIsOneRequestWhateverItsJavaType() {
    assertThat(channel.register(7, call("seven"))).isTrue();
    assertThat(channel.register(7L, call("again"))).as("7L is id 7, already in flight").isFalse();
    assertThat(channel.isInFlight((short) 7)).isTrue();
    channel.cancel(7L, "stop");
    assertThat(cancelled).containsExactly("seven: stop");
    assertThat(channel.isInFlight(7)).isFalse();
  }

  @Test
  void aStringOfTheSameDigitsIsAnotherRequest() {
    assertThat(channel.register(7, call("number"))).isTrue();
    assertThat(channel.register("7", call("string"))).isTrue();
    channel.cancel("7", "stop");
    assertThat(cancelled).containsExactly("string: stop");
    assertThat(channel.isInFlight(7)).isTrue();
    assertThat(channel.isInFlight("7")).isFalse();
  }

  @Test
  void numbersBeyondALongAndFractionsKeepTheirOwnIdentity() {
    BigInteger huge = BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE);
    assertThat(channel.register(huge, call("huge"))).isTrue();
    assertThat(channel.register(Long.MIN_VALUE, call("wrapped"))).as("not the huge id's low bits").isTrue();
    assertThat(channel.register(7.0, call("fraction"))).isTrue();
    assertThat(channel.register(7, call("seven"))).as("7.0 is not id 7").isTrue();
    assertThat(channel.isInFlight(new BigInteger(huge.toString()))).isTrue();
    channel.unregister(7, call("another"));
    assertThat(channel.isInFlight(7)).as("unregister removes only the call it registered").isTrue();
    assertThat(channel.inFlightCount()).isEqualTo(4);
  }
}
