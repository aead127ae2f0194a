/**
 * Several processes serving one vault: a Vert.x cluster on Hazelcast, one owner per document.
 *
 * <h2>Shape</h2>
 *
 * <p>Every node holds every document (its own {@code Vault} over the shared folder, its own search
 * index) and serves stdio and HTTP as a single server does. What a cluster adds is who writes:
 * the owner of a document is the member that owns the Hazelcast partition of its path, and only
 * the owner's write actor commits to it. {@link dev.gram.cluster.ClusterNode} is what the server
 * wires, a small facade over one class per job:
 *
 * <ul>
 *   <li>{@code WriteRouter}, the store's {@link dev.gram.store.DocumentWriter} for the tools:
 *       each write travels as data ({@code Wire}) over the clustered event bus to its document's
 *       owner ({@code ClusterView}), which answers with the receipt or the contract's refusal; it
 *       passes on a write whose partition moved, and waits on a timer while no node owns it.
 *   <li>{@code ClusterPeers}, the store's {@link dev.gram.store.Peers}: the owner's committer
 *       ({@code ReplicatingCommitter} in the store) hands each revision to every other node before
 *       its receipt ({@code ReplicationOutbox}: in batches, one outbox per other node), and a
 *       node loading a document asks the others for what its file lacks; the follower's side of
 *       both is here too.
 *   <li>{@code HeadFence} (with its entry processor {@code HeadAdvance}): each document's head as
 *       the whole cluster knows it, moved after the revision is durable and before anyone hears of
 *       it. {@code RequestIdClaims}: the request_id claims every node sees, which the owner's
 *       {@code Idempotency} makes and releases under its one rule, and lets go in batches once
 *       every node holds the revision ({@code ReleaseClaim}).
 *   <li>{@code LogTakeover}: the logs of nodes that stopped, handed to each document's owner
 *       (Vert.x timers and workers; no thread of its own). {@code OrphanRevisions} merges them.
 *   <li>{@code ClusterStats}: counts and step timings for {@code /healthz} and {@code /metrics}.
 * </ul>
 *
 * <h2>Why these choices</h2>
 *
 * <ul>
 *   <li>No protocol of our own: Hazelcast decides membership and partition ownership, and moves
 *       partitions when a member leaves; Vert.x carries the messages.
 *   <li>Followers take each revision before its receipt is returned ({@link
 *       dev.gram.store.Peers#replicate}), bounded by a timeout: a client that holds a
 *       receipt reads that revision or a later one from any node that answered, and a surviving
 *       node already holds every revision a dead owner acknowledged to such a node.
 *   <li>The write-ahead log stays per node, in the shared vault under the node's name. A log whose
 *       lock nobody holds belongs to a node that is not running; a survivor claims it ({@link
 *       dev.gram.store.OrphanLog}), hands each document's revisions to its owner, which adds those
 *       it lacks and writes the file, and deletes it. Acknowledged revisions are never only in a
 *       dead node's memory: they are in its log, and usually already in every follower.
 *   <li>A request_id is claimed in a Hazelcast map before its commit, so the cluster keeps one
 *       intent per id across documents exactly as one node does. The claim is keyed by the id and
 *       the fence by the path: two Hazelcast calls, since every claim of one id must meet on the
 *       id's partition, which is not the document's.
 * </ul>
 *
 * <h2>What it may not touch</h2>
 *
 * <p>It sits on the store ({@code dev.gram.store}, {@code dev.gram.format}) and is used by the
 * server only ({@code ArchitectureTest}); the index, tools, protocol and transports never see it.
 */
package dev.gram.cluster;
