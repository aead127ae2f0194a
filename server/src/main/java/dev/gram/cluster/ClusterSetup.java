package dev.gram.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.VertxOptions;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

/**
 * The Hazelcast member and Vert.x event bus settings of a node: TCP/IP discovery of the listed
 * members only (multicast and auto-detection off, so a node never joins a cluster it was not
 * told of), failure detection in seconds rather than Hazelcast's default minute, and logging
 * through SLF4J, which writes to stderr (stdout belongs to the stdio transport).
 */
public final class ClusterSetup {
  /** Without a heartbeat for this long a member is declared dead and its partitions move. */
  public static final int MEMBER_TIMEOUT_SECONDS = 5;

  private ClusterSetup() {}

  public static HazelcastClusterManager manager(ClusterSettings s) {
    Config c = ConfigUtil.loadConfig(); // Vert.x's own maps and multimap, with backups
    c.setClusterName("gram-mcp");
    c.setInstanceName("gram-" + s.node());
    c.setProperty("hazelcast.logging.type", "slf4j");
    c.setProperty("hazelcast.phone.home.enabled", "false");
    // Vert.x leaves the cluster in order at close; Hazelcast's own hook would race it.
    c.setProperty("hazelcast.shutdownhook.enabled", "false");
    c.setProperty("hazelcast.heartbeat.interval.seconds", "1");
    c.setProperty("hazelcast.max.no.heartbeat.seconds", String.valueOf(MEMBER_TIMEOUT_SECONDS));
    c.setProperty("hazelcast.wait.seconds.before.join", "0");
    c.setProperty("hazelcast.local.localAddress", s.host());
    NetworkConfig net = c.getNetworkConfig();
    net.setPort(s.port()).setPortAutoIncrement(false);
    JoinConfig join = net.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(2);
    join.getTcpIpConfig().addMember(s.host() + ":" + s.port());
    for (String m : s.members()) {
      join.getTcpIpConfig().addMember(m);
    }
    return new HazelcastClusterManager(c);
  }

  /** Where the event bus listens: the node's cluster address, on a free port. */
  public static VertxOptions eventBus(VertxOptions options, ClusterSettings s) {
    options.getEventBusOptions().setHost(s.host()).setPort(0).setClusterPublicHost(s.host());
    return options;
  }

  public static HazelcastInstance hazelcast(ClusterManager manager) {
    return ((HazelcastClusterManager) manager).getHazelcastInstance();
  }
}
