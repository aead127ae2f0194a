#!/bin/sh
# The peer comparison (docs/performance.md): gram-mcp against the MCP reference memory server,
# both over stdio with the official TypeScript SDK's client, in one run. Installs the two npm
# packages into a scratch folder (nothing is added to the repository), then runs compare.mjs
# from there. Not part of any test run.
#
#   server/src/test/peer/peer-compare.sh [path/to/gram-mcp.jar]
#
# PEER_SCRATCH   scratch folder (default target/peer)
# PEER_SDK       @modelcontextprotocol/sdk version (default the one measured in docs/performance.md)
# PEER_MEMORY    @modelcontextprotocol/server-memory version (likewise)
# PEER_RECORDS, PEER_QUERIES, JAVA: see compare.mjs
set -eu

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
root=$(CDPATH= cd -- "$here/../../../.." && pwd)
jar=${1:-$root/target/gram-mcp.jar}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "peer comparison skipped: node and npm are needed (Node 18 or newer)"
  exit 0
fi
if [ ! -f "$jar" ]; then
  echo "peer comparison: no $jar; build it with: mvn -B -q -DskipTests package" >&2
  exit 1
fi

scratch=${PEER_SCRATCH:-$root/target/peer}
mkdir -p "$scratch"
scratch=$(CDPATH= cd -- "$scratch" && pwd)
if [ ! -f "$scratch/package.json" ]; then
  printf '{ "name": "gram-peer-compare", "private": true, "type": "module" }\n' > "$scratch/package.json"
fi
# npm writes its progress to stderr; stdout stays the table.
npm install --prefix "$scratch" --no-audit --no-fund --loglevel=error \
  "@modelcontextprotocol/sdk@${PEER_SDK:-1.32.2}" \
  "@modelcontextprotocol/server-memory@${PEER_MEMORY:-2026.8.31}" >&2
cp "$here/compare.mjs" "$here/stub.mjs" "$scratch/"
cd "$scratch"
GRAM_JAR="$jar" PEER_DIR="$scratch/vaults" exec node compare.mjs
