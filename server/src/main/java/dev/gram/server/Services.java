package dev.gram.server;

import dev.gram.async.Background;
import dev.gram.async.Foreground;
import dev.gram.cluster.ClusterNode;
import dev.gram.edit.PatchOps;
import dev.gram.index.RecallIndex;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import dev.gram.store.VaultPath;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.ToolSettings;
import dev.gram.tools.resources.DocumentResources;
import dev.gram.tools.resources.MemoryPrompts;
import dev.gram.tools.resources.VaultChangeFeed;
import dev.gram.tools.spi.Prompts;
import dev.gram.tools.spi.Resources;
import dev.gram.tools.spi.ToolRegistry;
import dev.gram.tools.Tools;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything behind the transports, built once per process: the vault, the search index, the
 * tools. Transports share one instance, which is why a write through one is visible through all.
 */
public final class Services {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Services.class);

  private final Vault vault;
  private final RecallIndex index;
  private final GramContext context;
  private final ToolRegistry tools;
  private final Resources resources;
  private final Prompts prompts;

  private final ClusterNode cluster;
  private final Promise<Void> handshakeOver;
  private final Background background;

  private Services(
      Vault vault, RecallIndex index, GramContext context, ToolRegistry tools, Resources resources, Prompts prompts,
      ClusterNode cluster, Promise<Void> handshakeOver, Background background) {
    this.cluster = cluster;
    this.background = background;
    this.handshakeOver = handshakeOver;
    this.vault = vault;
    this.index = index;
    this.context = context;
    this.tools = tools;
    this.resources = resources;
    this.prompts = prompts;
  }

  /** Opens the vault (scanning it in the background) and builds the tools. */
  public static Services start(Vertx vertx, ServerConfig config, Clock clock) {
    return start(vertx, config, clock, null);
  }

  /**
   * As {@link #start(Vertx, ServerConfig, Clock)}; with a Hazelcast member (the node of a
   * cluster, {@code --cluster}), writes go through the cluster to each document's owner.
   */
  public static Services start(
      Vertx vertx, ServerConfig config, Clock clock, com.hazelcast.core.HazelcastInstance hz) {
    List<VaultPath.MountPoint> mounts = new ArrayList<>();
    for (ServerConfig.Mount m : config.mounts()) {
      mounts.add(new VaultPath.MountPoint(m.id(), m.root(), m.writable()));
    }
    boolean newVault = !java.nio.file.Files.exists(config.vault());
    Vault vault = new Vault(new PathResolver(config.vault(), mounts), new PatchOps(), clock, 16,
        new Vault.Durability(Vault.LogMode.WRITE, config.checkpointLag(),
            config.cluster() == null ? null : config.cluster().node()));
    try {
      // Before the index or any transport: recovery comes first, and a vault another process
      // serves must stop this start with a clear line instead of two writers on one log.
      vault.openLog();
    } catch (dev.gram.store.VaultInUseException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (java.io.IOException e) {
      // A vault that cannot be created or read: the start of its scan reports it and stops.
    }
    // What no client waits for (vectors, the index's rebuild and merges, the vault's scan) runs
    // on a bounded share of the machine and gives way to the tool calls the protocol counts here.
    Background background = new Background(config.backgroundThreads(), new Foreground());
    vault.yieldScanTo(background.foreground(), background.threads());
    // The index must listen before the vault starts: it hears of every document the scan loads.
    // It listens at once; its Lucene files and the embedding model open after the handshake.
    // Absolute: the start-up line and the logs name the folder, whatever the working directory.
    RecallIndex index =
        RecallIndex.openLater(vault, config.index().toAbsolutePath().normalize(), config.semantic(), background);
    // The change feed too: the scan tells it each document's revision, so only later writes are
    // news to subscribers.
    VaultChangeFeed changes = new VaultChangeFeed(background.foreground());
    vault.addListener(changes);
    Promise<Void> handshakeOver = Promise.promise();
    handshakeOver.future().onSuccess(v -> index.beginOpening());
    ClusterNode node = hz == null ? null : ClusterNode.create(vertx, hz, vault, config.cluster());
    dev.gram.store.DocumentWriter writer = node == null ? vault : node;
    if (node != null) {
      // The node hears other nodes' commits before it loads anything, so none goes unheard.
      node.join()
          .onFailure(e -> LOG.error("cluster: could not register this node's addresses: {}", e.toString()))
          .onComplete(ar -> node.afterScan(vault.start()));
    } else {
      // After the handshake as well: loading every document competes for the CPU with the
      // first answers (on 10,000 documents, about 150 ms of a one-second start on two cores).
      // Listing tools wait for the scan, and a write waits for it as before.
      handshakeOver.future().onSuccess(v -> vault.start());
    }
    if (newVault && config.welcome()) {
      // Through the writer: in a cluster another node may own the welcome document's path.
      // After the handshake too: its first write loads the classes of the durable path.
      handshakeOver.future().compose(v -> vault.scanned()).compose(v -> Welcome.write(vault, writer));
    }
    // The tools see the vault only through the store's interfaces, and only their own settings.
    ToolSettings settings = new ToolSettings(config.readDeadline(),
        node == null ? null : () -> new io.vertx.core.json.JsonObject()
            .put("node", node.node())
            .put("members", node.members()));
    GramContext ctx = new GramContext(vertx, vault, writer, index, index, settings, clock);
    return new Services(
        vault, index, ctx, Tools.registry(ctx), new DocumentResources(vault, changes), new MemoryPrompts(), node,
        handshakeOver, background);
  }

  /** The agents' tool calls, which the dispatcher counts and background work gives way to. */
  public Foreground foreground() {
    return background.foreground();
  }

  /**
   * Starts what a client's handshake does not need and would be slowed by: the vault's scan
   * (one server; a cluster node scans at once), opening the search index and loading the
   * embedding model, and the welcome document of a new vault. The server calls it once a client
   * is past its handshake, or a moment after its transports are up. Later calls do nothing.
   */
  public void handshakeOver() {
    handshakeOver.tryComplete();
  }

  public GramContext context() {
    return context;
  }

  public ToolRegistry tools() {
    return tools;
  }

  /** The documents as MCP resources, with the change feed subscriptions hear. */
  public Resources resources() {
    return resources;
  }

  public Prompts prompts() {
    return prompts;
  }

  public Vault vault() {
    return vault;
  }

  /** This node of a cluster, or null when the server runs alone. */
  public ClusterNode cluster() {
    return cluster;
  }

  /**
   * Stops taking routed writes (a cluster node), lets queued writes finish, then closes the
   * search index, and releases files.
   */
  public Future<Void> close() {
    // A client's first request or the grace timer may still come while closing: nothing starts.
    handshakeOver.tryFail("the server is stopping");
    if (cluster != null) {
      cluster.close();
    }
    return vault
        .close()
        .compose(
            v ->
                context
                    .vertx()
                    .executeBlocking(
                        () -> {
                          index.close();
                          return null;
                        }));
  }
}
