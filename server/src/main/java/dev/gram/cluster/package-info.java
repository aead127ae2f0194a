/**
 * Several processes serving one vault: a Vert.x cluster on Hazelcast, one owner per document.
 *
 * <h2>Shape</h2>
 *
 * <p>Every node holds every document (its own {@code Vault} over the shared folder, its own search
 * index) and serves stdio and HTTP as a single server does. What a cluster adds is who writes:
 * the owner of a document is the member that owns the Hazelcast partition of its path, and only
 * the owner's write actor commits to it. {@link dev.gram.cluster.ClusterNode} implements the
 * store's {@link dev.gram.store.DocumentWriter}, so the tools' writes reach the owner without
 * knowing a network is there; the command travels as data ({@code Wire}) over the clustered event
 * bus, and the owner answers with the receipt or the contract's refusal.
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
 *       intent per id across documents exactly as one node does.
 * </ul>
 *
 * <h2>What it may not touch</h2>
 *
 * <p>It sits on the store ({@code dev.gram.store}, {@code dev.gram.format}) and is used by the
 * server only ({@code ArchitectureTest}); the index, tools, protocol and transports never see it.
 */
package dev.gram.cluster;
