#!/usr/bin/env bash
# A local three-node Apache Kafka cluster (KRaft, each node a combined broker+controller, three voters) on
# 127.0.0.1, for failover tests. Each node is a broker.sh node in its own home; the nodes share one jar dir.
# Usage: scripts/kafka/cluster.sh start|stop|status
#        scripts/kafka/cluster.sh start-node|stop-node|kill-node|status-node <1..3>
# See scripts/kafka/README.md for the environment knobs.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
BROKER="$SCRIPT_DIR/broker.sh"
NODES=3
HOST=127.0.0.1

CHOME="${WARDEN_KAFKA_CLUSTER_HOME:-$REPO_ROOT/.warden/kafka-cluster}"
[[ "$CHOME" == /* ]] || CHOME="$PWD/$CHOME"
FIRST_PORT="${WARDEN_KAFKA_CLUSTER_PORT:-9192}"
FIRST_CONTROLLER_PORT="${WARDEN_KAFKA_CLUSTER_CONTROLLER_PORT:-9195}"
# Each node also listens on FIRST_PROXIED_PORT+n-1 and advertises FIRST_PROXY_PORT+n-1 there, for clients
# that reach it through a proxy (npm run verify's slow-network scenario runs the proxies).
FIRST_PROXIED_PORT="${WARDEN_KAFKA_CLUSTER_PROXIED_PORT:-9198}"
FIRST_PROXY_PORT="${WARDEN_KAFKA_CLUSTER_PROXY_PORT:-9201}"
FRESH="${WARDEN_KAFKA_FRESH:-0}"
# A node restarted after kill -9 waits for its old session to expire and recovers its logs: on a loaded
# machine that has taken 60 s, broker.sh's default.
export WARDEN_KAFKA_START_TIMEOUT="${WARDEN_KAFKA_START_TIMEOUT:-180}"

die() { echo "kafka-cluster: error: $*" >&2; exit 1; }
FIRSTS=(FIRST_PORT FIRST_CONTROLLER_PORT FIRST_PROXIED_PORT FIRST_PROXY_PORT)
for v in "${FIRSTS[@]}"; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a number, got '${!v}'"
done
# Node n (1..3) uses the n-th port of each range; no two ranges of $NODES ports may overlap.
for a in "${FIRSTS[@]}"; do
  for b in "${FIRSTS[@]}"; do
    [[ "$a" == "$b" ]] || ((${!a} >= ${!b} + NODES || ${!b} >= ${!a} + NODES)) ||
      die "the port ranges $a (${!a}) and $b (${!b}) of $NODES ports overlap (WARDEN_KAFKA_CLUSTER_PORT, _CONTROLLER_PORT, _PROXIED_PORT, _PROXY_PORT)"
  done
done

VOTERS=""
for ((n = 1; n <= NODES; n++)); do VOTERS+="${VOTERS:+,}$n@$HOST:$((FIRST_CONTROLLER_PORT + n - 1))"; done

# Runs broker.sh for node $1 with the rest of the arguments.
on_node() {
  local n="$1"
  shift
  [[ "$n" =~ ^[1-9][0-9]*$ ]] && ((n <= NODES)) || die "node must be 1..$NODES, got '$n'"
  WARDEN_KAFKA_HOME="$CHOME/node-$n" \
    WARDEN_KAFKA_LIBS="$CHOME/libs" \
    WARDEN_KAFKA_NODE_ID="$n" \
    WARDEN_KAFKA_PORT="$((FIRST_PORT + n - 1))" \
    WARDEN_KAFKA_CONTROLLER_PORT="$((FIRST_CONTROLLER_PORT + n - 1))" \
    WARDEN_KAFKA_PROXIED_PORT="$((FIRST_PROXIED_PORT + n - 1))" \
    WARDEN_KAFKA_PROXIED_ADVERTISED_PORT="$((FIRST_PROXY_PORT + n - 1))" \
    WARDEN_KAFKA_QUORUM_VOTERS="$VOTERS" \
    WARDEN_KAFKA_REPLICATION_FACTOR="$NODES" \
    "$BROKER" "$@"
}

# Launches every node before waiting for any: a voter becomes ready only once a quorum of voters runs.
# Idempotent like broker.sh start (running nodes are reused); WARDEN_KAFKA_FRESH=1 wipes every node's data.
cmd_start() {
  local n
  mkdir -p "$CHOME"
  [[ -f "$CHOME/.gitignore" ]] || printf '*\n' >"$CHOME/.gitignore"
  on_node 1 install
  for ((n = 1; n <= NODES; n++)); do WARDEN_KAFKA_FRESH="$FRESH" WARDEN_KAFKA_WAIT=0 on_node "$n" start; done
  for ((n = 1; n <= NODES; n++)); do WARDEN_KAFKA_FRESH=0 on_node "$n" start; done
  echo "kafka-cluster: $NODES nodes ready on $HOST:$FIRST_PORT-$((FIRST_PORT + NODES - 1))"
}

# SIGTERMs every node at once: one by one, the last node would wait 30 s for a quorum to accept its
# controlled shutdown. A failure to stop one still stops the others.
cmd_stop() {
  local n failed=0 pids=()
  for ((n = 1; n <= NODES; n++)); do
    on_node "$n" stop &
    pids+=($!)
  done
  for n in "${pids[@]}"; do wait "$n" || failed=1; done
  return "$failed"
}

cmd_status() {
  local n down=0
  for ((n = 1; n <= NODES; n++)); do on_node "$n" status || down=1; done
  return "$down"
}

cmd="${1:-}"
[[ $# -gt 0 ]] && shift
case "$cmd" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  start-node) [[ $# -eq 1 ]] || die "usage: $0 start-node <1..$NODES>"; WARDEN_KAFKA_FRESH=0 on_node "$1" start ;;
  stop-node) [[ $# -eq 1 ]] || die "usage: $0 stop-node <1..$NODES>"; on_node "$1" stop ;;
  kill-node) [[ $# -eq 1 ]] || die "usage: $0 kill-node <1..$NODES>"; on_node "$1" kill ;;
  status-node) [[ $# -eq 1 ]] || die "usage: $0 status-node <1..$NODES>"; on_node "$1" status ;;
  tool) on_node 1 tool "$@" ;;
  *)
    cat >&2 <<USAGE
usage: $0 start|stop|status|start-node N|stop-node N|kill-node N|status-node N|tool <main class> [args...]
  env: WARDEN_KAFKA_CLUSTER_HOME=$CHOME WARDEN_KAFKA_CLUSTER_PORT=$FIRST_PORT
       WARDEN_KAFKA_CLUSTER_CONTROLLER_PORT=$FIRST_CONTROLLER_PORT WARDEN_KAFKA_FRESH=$FRESH
       WARDEN_KAFKA_CLUSTER_PROXIED_PORT=$FIRST_PROXIED_PORT WARDEN_KAFKA_CLUSTER_PROXY_PORT=$FIRST_PROXY_PORT
USAGE
    exit 2
    ;;
esac
