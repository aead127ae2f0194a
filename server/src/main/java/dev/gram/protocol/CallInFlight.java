package dev.gram.protocol;

import dev.gram.access.Identity;
import dev.gram.tools.spi.CallContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code tools/call} from the moment its tool starts until it is answered: the {@link
 * CallContext} the tool sees, and the entry its channel cancels. Its reply completes once, with the
 * tool's result or, on cancellation, with {@link Reply#CANCELLED}, whichever comes first.
 */
final class CallInFlight implements CallContext, Channel.InFlight {
  private static final Logger LOG = LoggerFactory.getLogger(CallInFlight.class);

  private final Object id;
  private final String agent;
  private final Identity caller;
  private final Object progressToken;
  private final Consumer<JsonObject> stream;
  private final Channel channel;
  private final Promise<Reply> reply = Promise.promise();
  private volatile boolean cancelled;
  private volatile boolean done;
  private double lastProgress = Double.NEGATIVE_INFINITY;

  /**
   * @param progressToken the client's {@code _meta.progressToken}, or {@code null} when it asked
   *     for no progress
   * @param stream where progress notifications go
   */
  CallInFlight(
      Object id,
      String agent,
      Identity caller,
      Object progressToken,
      Consumer<JsonObject> stream,
      Channel channel) {
    this.id = id;
    this.agent = agent;
    this.caller = caller;
    this.progressToken = progressToken;
    this.stream = stream;
    this.channel = channel;
  }

  Future<Reply> reply() {
    return reply.future();
  }

  /** The tool finished: progress it reports from now on is dropped. */
  void toolFinished() {
    done = true;
  }

  /** Answers the call, unless it was cancelled first. */
  void answer(Reply answer) {
    reply.tryComplete(answer);
  }

  @Override
  public String agent() {
    return agent;
  }

  @Override
  public boolean background() {
    return channel.warmup();
  }

  @Override
  public Identity caller() {
    return caller;
  }

  @Override
  public boolean cancelled() {
    return cancelled;
  }

  @Override
  public void cancel(String reason) {
    cancelled = true;
    LOG.debug("{} request {} cancelled: {}", channel, id, reason);
    // The client stopped waiting: answer nothing, as the specification asks.
    reply.tryComplete(Reply.CANCELLED);
  }

  @Override
  public void progress(double progress, Double total, String message) {
    if (progressToken == null || cancelled || done) {
      return;
    }
    synchronized (this) {
      // Progress must increase; a repeat or a step back would break clients' bookkeeping.
      if (!(progress > lastProgress)) {
        return;
      }
      lastProgress = progress;
    }
    JsonObject params =
        new JsonObject().put("progressToken", progressToken).put("progress", progress);
    if (total != null) {
      params.put("total", total);
    }
    if (message != null) {
      params.put("message", message);
    }
    stream.accept(JsonRpc.notification("notifications/progress", params));
  }
}
