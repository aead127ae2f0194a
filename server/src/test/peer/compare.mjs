// The peer comparison: gram-mcp against the MCP reference memory server
// (@modelcontextprotocol/server-memory), both driven over stdio by the official TypeScript SDK's
// client, the way an agent runtime drives a sidecar. Run by peer-compare.sh, which installs the
// packages into a scratch folder and runs this file from there; see docs/performance.md.
//
// What it does, in one run: starts both servers; ingests the same records into each (gram:
// gram_create and gram_patch, 50 records a call, 100 a document; the memory server:
// create_entities, 50 a call, each record an entity whose observations are its title,
// description and date); queries each at once after its own ingest (gram_recall in keyword mode;
// search_nodes), waits until gram has computed every vector and its process is idle, then queries
// both again at rest, in alternating rounds. Last, the client's own floor: the same client asks a
// stand-in server (stub.mjs) that answers at once with gram's recorded answers. Prints one Markdown
// table with the ratios, and the same numbers as JSON on the last line.
//
// Options (environment): GRAM_JAR (required), PEER_RECORDS (10000), PEER_QUERIES (500 a phase),
// PEER_DIR (scratch folder for the vaults), JAVA (java on the PATH).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFileSync, writeFileSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const jar = process.env.GRAM_JAR;
const records = Number(process.env.PEER_RECORDS ?? 10000);
const queriesPerPhase = Number(process.env.PEER_QUERIES ?? 500);
const dir = process.env.PEER_DIR ?? join(process.cwd(), "vaults");
const java = process.env.JAVA ?? "java";
const here = dirname(fileURLToPath(import.meta.url));
if (!jar) {
  console.error("peer: GRAM_JAR is not set");
  process.exit(2);
}

// The same ten queries as the Java bench's recall rows.
const QUERIES = ["migration decision", "release checklist", "latency budget", "supplier risk", "onboarding",
  "2026-03", "incident review", "capacity plan", "security audit", "roadmap"];
const ADJ = ["blue", "quiet", "remote", "legacy", "shared", "nightly", "secure", "fast", "regional", "manual",
  "partial", "broken", "stable", "hidden", "urgent", "mobile", "internal", "public", "weekly", "cold"];
const NOUN = ["migration", "decision", "release", "checklist", "latency", "budget", "supplier", "risk", "onboarding",
  "incident", "review", "capacity", "plan", "security", "audit", "roadmap", "database", "gateway", "invoice",
  "dashboard", "certificate", "cluster", "pipeline", "backup", "queue", "scheduler", "report", "sensor", "cache",
  "token"];
const VERB = ["migrate", "replace", "audit", "monitor", "document", "retire", "upgrade", "test", "review", "rebuild"];
const TYPES = ["task", "decision", "event", "knowledge", "risk"];

/** Record r, as the Java bench's SidecarBench.record makes it. */
function record(r) {
  const h = Number((BigInt(r) * 2654435761n) & 0x7fffffffn);
  const cap = (s) => s[0].toUpperCase() + s.slice(1);
  const title = `${cap(VERB[h % VERB.length])} the ${ADJ[Math.floor(h / 7) % ADJ.length]} ${NOUN[Math.floor(h / 11) % NOUN.length]} ${NOUN[Math.floor(h / 13) % NOUN.length]} ${r}`;
  const desc = `The ${ADJ[Math.floor(h / 17) % ADJ.length]} team will ${VERB[Math.floor(h / 19) % VERB.length]} the ${NOUN[Math.floor(h / 23) % NOUN.length]} before the ${NOUN[Math.floor(h / 29) % NOUN.length]} is ${ADJ[Math.floor(h / 31) % ADJ.length]}.`;
  const type = TYPES[r % TYPES.length];
  const date = (type === "event" || type === "decision")
    ? `2026-${String(1 + h % 12).padStart(2, "0")}-${String(1 + Math.floor(h / 12) % 28).padStart(2, "0")}` : null;
  return { type, id: `r${r}`, title, desc, date };
}

async function connect(command, args, env) {
  const transport = new StdioClientTransport({ command, args, env, stderr: "pipe" });
  const client = new Client({ name: "peer-compare", version: "1.0.0" });
  transport.stderr?.on("data", () => {});
  await client.connect(transport);
  await client.listTools();
  return { client, transport };
}

async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) {
    throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  }
  return r;
}

/** n calls of one tool, cycling through the queries; latencies in ms. */
async function measure(client, name, argsOf, n) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const args = argsOf(QUERIES[i % QUERIES.length]);
    const t0 = performance.now();
    await call(client, name, args);
    ms.push(performance.now() - t0);
  }
  return ms;
}

function pct(ms, p) {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
}

const gramQuery = (q) => ({ query: q, mode: "keyword" });
const memoryQuery = (q) => ({ query: q });

async function ingestGram(client) {
  const perDoc = 100;
  let r = 0;
  for (let d = 0; r < records; d++) {
    const path = `proj${d % 10}/plan${d}.gram`;
    let doc = (await call(client, "gram_create", { path, base_revision: null, title: `Plan ${d}`,
      content: `# Goals\n\nKeep the ${NOUN[(d * 7) % NOUN.length]} ${ADJ[(d * 3) % ADJ.length]}.` })).structuredContent.doc;
    const end = Math.min(records, (d + 1) * perDoc);
    while (r < end) {
      const operations = [];
      for (let k = 0; k < 50 && r < end; k++, r++) {
        const x = record(r);
        const fields = { t: [x.title], d: [x.desc] };
        if (x.date) fields.at = [x.date];
        operations.push({ op: "add", record: { type: x.type, id: x.id, fields } });
      }
      doc = (await call(client, "gram_patch", { path, base_revision: doc.rev, expected_hash: doc.hash,
        request_id: `ingest-${r}`, operations })).structuredContent.doc;
    }
  }
}

async function ingestMemory(client) {
  for (let r = 0; r < records;) {
    const entities = [];
    for (let k = 0; k < 50 && r < records; k++, r++) {
      const x = record(r);
      entities.push({ name: `${x.id} ${x.title}`, entityType: x.type,
        observations: [x.title, x.desc, ...(x.date ? [x.date] : [])] });
    }
    await call(client, "create_entities", { entities });
  }
}

/** Whether gram has a vector for every chunk: a semantic recall says none is missing. */
async function vectorsDone(client) {
  const s = (await call(client, "gram_recall", { query: "plan", mode: "semantic" })).structuredContent;
  return !s.fallback && !s.unembeddedChunks && !s.partial;
}

async function awaitVectors(client, maxMs) {
  const end = performance.now() + maxMs;
  while (performance.now() < end) {
    if (await vectorsDone(client)) {
      return true;
    }
    await new Promise((res) => setTimeout(res, 500));
  }
  return false;
}

/** Until process pid uses under 5% of a core for 3 s in a row (Linux /proc). */
async function awaitIdle(pid, maxMs) {
  const ticks = () => {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return Number(f[11]) + Number(f[12]);
    } catch {
      return null;
    }
  };
  const end = performance.now() + maxMs;
  let last = ticks();
  let quiet = 0;
  if (last === null) return false;
  while (performance.now() < end && quiet < 3) {
    await new Promise((res) => setTimeout(res, 1000));
    const now = ticks();
    quiet = now - last < 5 ? quiet + 1 : 0;
    last = now;
  }
  return quiet >= 3;
}

const fmt = (x) => x.toFixed(3);

async function main() {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "gram"), { recursive: true });
  const require = createRequire(import.meta.url);
  const memoryMain = require.resolve("@modelcontextprotocol/server-memory/dist/index.js");
  const memoryVersion = JSON.parse(readFileSync(require.resolve("@modelcontextprotocol/server-memory/package.json"), "utf8")).version;
  const sdkVersion = JSON.parse(readFileSync(join(require.resolve("@modelcontextprotocol/sdk/client/index.js"), "../../../../package.json"), "utf8")).version;

  const memory = await connect(process.execPath, [memoryMain], { MEMORY_FILE_PATH: join(dir, "memory.jsonl") });
  let t0 = performance.now();
  await ingestMemory(memory.client);
  const memoryIngestS = (performance.now() - t0) / 1000;
  const memoryAtOnce = await measure(memory.client, "search_nodes", memoryQuery, queriesPerPhase);

  // Default flags, but for the folders and a free HTTP port (4726 may be taken here).
  const gram = await connect(java, ["-jar", jar, "--vault", join(dir, "gram", "vault"), "--index",
    join(dir, "gram", "index"), "--port", "0"], {});
  t0 = performance.now();
  await ingestGram(gram.client);
  const gramIngestS = (performance.now() - t0) / 1000;
  const gramAtOnce = await measure(gram.client, "gram_recall", gramQuery, queriesPerPhase);
  const stillEmbedding = !(await vectorsDone(gram.client));

  t0 = performance.now();
  const vectors = await awaitVectors(gram.client, 20 * 60 * 1000);
  const vectorsS = (performance.now() - t0) / 1000;
  const idle = await awaitIdle(gram.transport.pid, 10 * 60 * 1000);
  const memoryAtRest = [];
  const gramAtRest = [];
  for (let round = 0; round < 4; round++) {
    memoryAtRest.push(...await measure(memory.client, "search_nodes", memoryQuery, queriesPerPhase / 2));
    gramAtRest.push(...await measure(gram.client, "gram_recall", gramQuery, queriesPerPhase / 2));
  }
  // The client's own floor: the same client, the same calls, answered at once with the bytes gram
  // answered (stub.mjs does no work), in alternating rounds with gram itself. At 100x the memory
  // server's p50, gram's p50 must be under memoryAtRest / 100; so must the client's floor.
  const answers = {
    initialize: { protocolVersion: "", capabilities: gram.client.getServerCapabilities(),
      serverInfo: gram.client.getServerVersion(), instructions: gram.client.getInstructions() },
    toolsList: await gram.client.listTools(),
    recall: {},
  };
  for (const q of QUERIES) {
    answers.recall[q] = await call(gram.client, "gram_recall", gramQuery(q));
  }
  const answersFile = join(dir, "recorded-answers.json");
  writeFileSync(answersFile, JSON.stringify(answers));
  const stub = await connect(process.execPath, [join(here, "stub.mjs")], { STUB_ANSWERS: answersFile });
  await measure(stub.client, "gram_recall", gramQuery, queriesPerPhase);
  const stubAtRest = [];
  const gramBeside = [];
  for (let round = 0; round < 4; round++) {
    stubAtRest.push(...await measure(stub.client, "gram_recall", gramQuery, queriesPerPhase / 2));
    gramBeside.push(...await measure(gram.client, "gram_recall", gramQuery, queriesPerPhase / 2));
  }
  await stub.client.close();
  await memory.client.close();
  await gram.client.close();

  const rows = {
    records, queriesPerPhase, sdkVersion, memoryVersion,
    memoryIngestSeconds: memoryIngestS, gramIngestSeconds: gramIngestS,
    memoryAtOnce: { p50: pct(memoryAtOnce, 0.5), p99: pct(memoryAtOnce, 0.99) },
    gramAtOnce: { p50: pct(gramAtOnce, 0.5), p99: pct(gramAtOnce, 0.99), whileEmbedding: stillEmbedding },
    memoryAtRest: { p50: pct(memoryAtRest, 0.5), p99: pct(memoryAtRest, 0.99) },
    gramAtRest: { p50: pct(gramAtRest, 0.5), p99: pct(gramAtRest, 0.99), vectorsSecondsAfterQueries: vectorsS, vectors, idle },
    clientFloor: { p50: pct(stubAtRest, 0.5), p99: pct(stubAtRest, 0.99), gramBesideP50: pct(gramBeside, 0.5) },
  };
  const out = [
    `| peer (${records} records, stdio, TypeScript SDK ${sdkVersion} client) | gram-mcp p50 / p99 ms | server-memory ${memoryVersion} p50 / p99 ms | ratio of p50 |`,
    "|---|---|---|---|",
    `| ingest (50 records a call) | ${gramIngestS.toFixed(1)} s | ${memoryIngestS.toFixed(1)} s | |`,
    `| query at once after the ingest${stillEmbedding ? " (gram still computing vectors)" : ""} | ${fmt(rows.gramAtOnce.p50)} / ${fmt(rows.gramAtOnce.p99)} | ${fmt(rows.memoryAtOnce.p50)} / ${fmt(rows.memoryAtOnce.p99)} | ${(rows.memoryAtOnce.p50 / rows.gramAtOnce.p50).toFixed(1)}× |`,
    `| query at rest (every vector computed, ${vectorsS.toFixed(0)} s later; process ${idle ? "idle" : "not idle"}) | ${fmt(rows.gramAtRest.p50)} / ${fmt(rows.gramAtRest.p99)} | ${fmt(rows.memoryAtRest.p50)} / ${fmt(rows.memoryAtRest.p99)} | ${(rows.memoryAtRest.p50 / rows.gramAtRest.p50).toFixed(1)}× |`,
    `| the client's own floor: gram's recorded answers replayed at once (stub.mjs), rounds alternated with gram | ${fmt(rows.clientFloor.p50)} / ${fmt(rows.clientFloor.p99)} (gram in the same rounds ${fmt(rows.clientFloor.gramBesideP50)}) | 100× at rest needs gram ≤ ${fmt(rows.memoryAtRest.p50 / 100)} | floor ${(rows.memoryAtRest.p50 / rows.clientFloor.p50).toFixed(1)}× |`,
  ];
  console.log(out.join("\n"));
  console.log(JSON.stringify(rows));
}

main().then(() => process.exit(0), (e) => {
  console.error("peer: " + (e?.stack ?? e));
  process.exit(1);
});
