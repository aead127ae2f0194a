#!/usr/bin/env bash
# Power cuts under the real server on LazyFS (docs/reliability.md, "Power cuts on LazyFS"):
# mounts LazyFS over a backing folder, runs target/gram-mcp.jar on it under six writers, cuts the
# power at random moments and at I/O points of the log and the checkpointer (and again during the
# replay of the next start), and checks after every cut that each acknowledged write is in its
# document exactly once. Not part of any test run.
#
# usage: soak/lazyfs-power-cuts.sh [CUTS]          (default 120)
# env:   LAZYFS=/path/to/lazyfs   the LazyFS binary (else: on PATH, else built from ../shared/tools/lazyfs)
#        MVN_FLAGS="-o"           extra Maven flags;  SEED=N  LAG_MS=N  WRITERS=N  DOCUMENTS=N  WRITE_MS=N
#        ONLY=LOG_LEFT_UNSYNCED   every cut under load of one kind (the names in server/src/test/java/dev/gram/soak/Cut.java)
# Needs root (LazyFS mounts with allow_other) and /dev/fuse; skips with one line otherwise.
# The work folder is target/power-cuts (backing folder, LazyFS and server logs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cuts=${1:-120}

skip() { echo "SKIP power cuts on LazyFS: $*"; exit 0; }

[ -e /dev/fuse ] || skip "/dev/fuse does not exist here (a container needs --device /dev/fuse --cap-add SYS_ADMIN)"
[ "$(id -u)" -eq 0 ] || skip "LazyFS must run as root"
command -v fusermount3 >/dev/null || skip "fusermount3 is missing (apt-get install fuse3)"

lazyfs=${LAZYFS:-$(command -v lazyfs || true)}
if [ -z "$lazyfs" ] && [ -x "$root/../shared/tools/lazyfs/build.sh" ]; then
  lazyfs=$("$root/../shared/tools/lazyfs/build.sh" | tail -n 1)
fi
if [ -z "$lazyfs" ] || [ ! -x "$lazyfs" ]; then
  skip "no LazyFS binary; build it from github.com/dsrhaslab/lazyfs as docs/reliability.md says, then LAZYFS=/path/to/lazyfs $0"
fi

cd "$root"
# shellcheck disable=SC2086
exec mvn -B -q ${MVN_FLAGS:-} -pl server -Ppower-cuts -DskipTests package exec:exec \
  -Dpowercuts.lazyfs="$lazyfs" -Dpowercuts.cuts="$cuts" \
  ${SEED:+-Dpowercuts.seed=$SEED} ${LAG_MS:+-Dpowercuts.lagMs=$LAG_MS} \
  ${WRITERS:+-Dpowercuts.writers=$WRITERS} ${DOCUMENTS:+-Dpowercuts.documents=$DOCUMENTS} \
  ${WRITE_MS:+-Dpowercuts.writeMs=$WRITE_MS} ${ONLY:+-Dpowercuts.only=$ONLY}
