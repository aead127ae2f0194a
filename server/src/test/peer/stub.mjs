// A stand-in MCP server over stdio that does no work: it answers each request at once with bytes
// recorded from gram-mcp (compare.mjs records them), so the time a client takes for a call here is
// the client's own share of that call, its floor whatever the server. STUB_ANSWERS names a JSON
// file {initialize, toolsList, recall: {query: result}}; gram_recall is answered by its query.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
const a = JSON.parse(readFileSync(process.env.STUB_ANSWERS, "utf8"));
const toolsList = JSON.stringify(a.toolsList);
const recall = Object.fromEntries(Object.entries(a.recall).map(([q, r]) => [q, JSON.stringify(r)]));
const out = (id, result) => process.stdout.write('{"jsonrpc":"2.0","id":' + JSON.stringify(id) + ',"result":' + result + "}\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  switch (m.method) {
    case "initialize": out(m.id, JSON.stringify({ ...a.initialize, protocolVersion: m.params.protocolVersion })); break;
    case "tools/list": out(m.id, toolsList); break;
    case "ping": out(m.id, "{}"); break;
    case "tools/call": out(m.id, recall[m.params.arguments.query] ?? '{"content":[],"isError":true}'); break;
    default: process.stdout.write('{"jsonrpc":"2.0","id":' + JSON.stringify(m.id) + ',"error":{"code":-32601,"message":"no"}}\n');
  }
});
