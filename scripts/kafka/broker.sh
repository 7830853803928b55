#!/usr/bin/env bash
# Local Apache Kafka node (KRaft, combined broker+controller) for development and tests: a single broker by
# default, or one node of the three-node cluster scripts/kafka/cluster.sh runs (WARDEN_KAFKA_NODE_ID,
# WARDEN_KAFKA_QUORUM_VOTERS, WARDEN_KAFKA_REPLICATION_FACTOR).
# Usage: scripts/kafka/broker.sh install|start|stop|kill|status|tool <main class> [args...]
# See scripts/kafka/README.md for the environment knobs.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
POM="$SCRIPT_DIR/pom.xml"

KHOME="${WARDEN_KAFKA_HOME:-$REPO_ROOT/.warden/kafka}"
[[ "$KHOME" == /* ]] || KHOME="$PWD/$KHOME"
PORT="${WARDEN_KAFKA_PORT:-9092}"
CONTROLLER_PORT="${WARDEN_KAFKA_CONTROLLER_PORT:-9093}"
FRESH="${WARDEN_KAFKA_FRESH:-0}"
START_TIMEOUT="${WARDEN_KAFKA_START_TIMEOUT:-60}"
NODE_ID="${WARDEN_KAFKA_NODE_ID:-1}"
REPLICATION_FACTOR="${WARDEN_KAFKA_REPLICATION_FACTOR:-1}"
# 0 = start returns once the JVM is launched: a node of a three-voter quorum cannot become ready before a
# second voter runs, so cluster.sh launches all nodes first and waits after.
WAIT_READY="${WARDEN_KAFKA_WAIT:-1}"
STOP_TIMEOUT=30
HOST=127.0.0.1
# Any fixed base64url encoding of 16 bytes; this one is "WardenLocalKafka".
CLUSTER_ID=V2FyZGVuTG9jYWxLYWZrYQ
# Optional security listeners (all unset by default: the broker then has its PLAINTEXT listener only).
SASL_PORT="${WARDEN_KAFKA_SASL_PORT:-}"
SSL_PORT="${WARDEN_KAFKA_SSL_PORT:-}"
MTLS_PORT="${WARDEN_KAFKA_MTLS_PORT:-}"
SASL_SSL_PORT="${WARDEN_KAFKA_SASL_SSL_PORT:-}"
SASL_USERS="${WARDEN_KAFKA_SASL_USERS:-}"
# Optional PLAINTEXT listener for clients that reach the node through a proxy (cluster.sh sets it): it
# listens on PROXIED_PORT and advertises PROXIED_ADVERTISED_PORT, where the proxy forwards to it. Clients
# that bootstrap there see every node's proxy address; inter-broker traffic never goes through it.
PROXIED_PORT="${WARDEN_KAFKA_PROXIED_PORT:-}"
PROXIED_ADVERTISED_PORT="${WARDEN_KAFKA_PROXIED_ADVERTISED_PORT:-}"
SSL_CERT_FILE="${WARDEN_KAFKA_SSL_CERT_FILE:-}"
SSL_KEY_FILE="${WARDEN_KAFKA_SSL_KEY_FILE:-}"
SSL_CA_FILE="${WARDEN_KAFKA_SSL_CA_FILE:-}"
# 1 = enforce ACLs (StandardAuthorizer): PLAINTEXT clients (and inter-broker and controller traffic) are
# ANONYMOUS, a super user; SASL users get only what ACLs grant them. For tests of refused requests.
AUTHORIZER="${WARDEN_KAFKA_AUTHORIZER:-0}"

KAFKA_VERSION="$(sed -n 's:.*<kafka\.version>\(.*\)</kafka\.version>.*:\1:p' "$POM")"
# The cluster's nodes share one jar directory (WARDEN_KAFKA_LIBS) instead of resolving three copies.
LIBS="${WARDEN_KAFKA_LIBS:-$KHOME/libs-$KAFKA_VERSION}"
DATA="$KHOME/data"
LOGS="$KHOME/logs"
PIDFILE="$KHOME/broker.pid"
SERVER_PROPS="$KHOME/server.properties"
LOG4J_BROKER="$KHOME/log4j2-broker.properties"
LOG4J_TOOLS="$KHOME/log4j2-tools.properties"
SERVER_LOG="$LOGS/server.log"
STDOUT_LOG="$LOGS/stdout.log"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

say() { echo "kafka: $*"; }
die() { echo "kafka: error: $*" >&2; exit 1; }

now_ms() {
  if [[ -n "${EPOCHREALTIME:-}" ]]; then
    local t="${EPOCHREALTIME/[.,]/}"
    echo $((t / 1000))
  else
    echo $(($(date +%s) * 1000))
  fi
}
secs_since() { local d=$(($(now_ms) - $1)); echo "$((d / 1000)).$(((d % 1000) / 100))"; }

[[ -n "$KAFKA_VERSION" ]] || die "cannot read <kafka.version> from $POM"
for v in PORT CONTROLLER_PORT START_TIMEOUT NODE_ID REPLICATION_FACTOR; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a number, got '${!v}'"
done
QUORUM_VOTERS="${WARDEN_KAFKA_QUORUM_VOTERS:-$NODE_ID@$HOST:$CONTROLLER_PORT}"
[[ "$QUORUM_VOTERS" =~ ^[0-9]+@[0-9.]+:[0-9]+(,[0-9]+@[0-9.]+:[0-9]+)*$ ]] ||
  die "WARDEN_KAFKA_QUORUM_VOTERS must be id@host:port pairs, comma-separated, got '$QUORUM_VOTERS'"
[[ ",$QUORUM_VOTERS" == *",$NODE_ID@$HOST:$CONTROLLER_PORT"* ]] ||
  die "WARDEN_KAFKA_QUORUM_VOTERS ($QUORUM_VOTERS) must name this node ($NODE_ID@$HOST:$CONTROLLER_PORT)"
((REPLICATION_FACTOR >= 1)) || die "WARDEN_KAFKA_REPLICATION_FACTOR must be at least 1"
# With replicas to spare, an acks=all write needs two of them, so one lost node never loses an acknowledged record.
MIN_ISR=$((REPLICATION_FACTOR > 1 ? 2 : 1))
[[ "$WAIT_READY" == 0 || "$WAIT_READY" == 1 ]] || die "WARDEN_KAFKA_WAIT must be 0 or 1, got '$WAIT_READY'"
[[ "$AUTHORIZER" == 0 || "$AUTHORIZER" == 1 ]] || die "WARDEN_KAFKA_AUTHORIZER must be 0 or 1, got '$AUTHORIZER'"
[[ "$PORT" != "$CONTROLLER_PORT" ]] || die "WARDEN_KAFKA_PORT and WARDEN_KAFKA_CONTROLLER_PORT must differ"
[[ -z "$PROXIED_PORT$PROXIED_ADVERTISED_PORT" || (-n "$PROXIED_PORT" && -n "$PROXIED_ADVERTISED_PORT") ]] ||
  die "WARDEN_KAFKA_PROXIED_PORT and WARDEN_KAFKA_PROXIED_ADVERTISED_PORT go together"
for v in SASL_PORT SSL_PORT MTLS_PORT SASL_SSL_PORT PROXIED_PORT PROXIED_ADVERTISED_PORT; do
  [[ -z "${!v}" || "${!v}" =~ ^[0-9]+$ ]] || die "WARDEN_KAFKA_$v must be a number, got '${!v}'"
done
# Every port the broker listens on: client, controller, then the security listeners that are set.
ALL_PORTS=("$PORT" "$CONTROLLER_PORT")
for p in "$SASL_PORT" "$SSL_PORT" "$MTLS_PORT" "$SASL_SSL_PORT" "$PROXIED_PORT"; do [[ -z "$p" ]] || ALL_PORTS+=("$p"); done
[[ "$(printf '%s\n' "${ALL_PORTS[@]}" | sort | uniq -d)" == "" ]] ||
  die "the broker's ports must all differ, got ${ALL_PORTS[*]} (WARDEN_KAFKA_PORT, _CONTROLLER_PORT, _SASL_PORT, _SSL_PORT, _MTLS_PORT, _SASL_SSL_PORT)"

# Serialises install/start/stop across concurrent callers (e.g. parallel test setups).
# The fd must not leak into the broker or a tool JVM, or they would hold the lock for their lifetime.
lock() {
  mkdir -p "$KHOME"
  # Self-ignoring, so jars and data never get committed wherever WARDEN_KAFKA_HOME points.
  [[ -f "$KHOME/.gitignore" ]] || printf '*\n' >"$KHOME/.gitignore"
  command -v flock >/dev/null 2>&1 || return 0
  exec 9>"$KHOME/.lock"
  flock -w 300 9 || die "timed out waiting for $KHOME/.lock"
}
unlock() { exec 9>&-; }

pom_hash() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$POM"; else shasum -a 256 "$POM"; fi | cut -d' ' -f1
}

installed() {
  [[ -f "$LIBS/.pom.sha256" && "$(cat "$LIBS/.pom.sha256")" == "$(pom_hash)" ]]
}

# Resolves into a temp dir and renames it into place, so an interrupted download never
# leaves a half-filled libs dir that looks installed.
install_jars() {
  if installed; then return 0; fi
  command -v mvn >/dev/null 2>&1 || die "mvn not found (needed once to download the Kafka jars)"
  mkdir -p "$LOGS"
  local tmp="$LIBS.tmp.$$" t0
  t0=$(now_ms)
  say "resolving Kafka $KAFKA_VERSION jars into $LIBS (~55 MB; downloads only on a cold Maven cache)"
  rm -rf "$tmp"
  if ! mvn -B -q -f "$POM" \
      org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$tmp" >"$LOGS/install.log" 2>&1; then
    tail -n 40 "$LOGS/install.log" >&2
    rm -rf "$tmp"
    die "maven could not resolve the jars (full output: $LOGS/install.log)"
  fi
  local jar
  for jar in "kafka_2.13-$KAFKA_VERSION.jar" "kafka-tools-$KAFKA_VERSION.jar"; do
    [[ -f "$tmp/$jar" ]] || { rm -rf "$tmp"; die "resolved jars lack $jar"; }
  done
  ls "$tmp"/log4j-slf4j2-impl-*.jar >/dev/null 2>&1 || { rm -rf "$tmp"; die "resolved jars lack a logging binding"; }
  pom_hash >"$tmp/.pom.sha256"
  rm -rf "$LIBS"
  mv "$tmp" "$LIBS"
  say "installed $(ls "$LIBS"/*.jar | wc -l | tr -d ' ') jars in $(secs_since "$t0") s"
}

read_pid() {
  local pid=""
  [[ -f "$PIDFILE" ]] && read -r pid <"$PIDFILE" || true
  [[ "$pid" =~ ^[0-9]+$ ]] && echo "$pid" || true
}

# A zombie counts as dead: the launcher detaches the broker, and the reaper (pid 1) may never reap it.
pid_alive() {
  local stat
  stat="$(ps -o stat= -p "$1" 2>/dev/null)" || return 1
  stat="${stat//[[:space:]]/}"
  [[ -n "$stat" && "$stat" != Z* ]]
}

# Ours = a kafka.Kafka JVM running this home's server.properties (guards against pid reuse).
is_ours() {
  local args
  args="$(ps -ww -o args= -p "$1" 2>/dev/null)" || return 1
  [[ "$args" == *" kafka.Kafka "* && "$args" == *"$SERVER_PROPS"* ]]
}

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

file_size() { if [[ -f "$1" ]]; then wc -c <"$1" | tr -d ' '; else echo 0; fi; }

print_log_tail() {
  local offset="${1:-0}"
  if [[ -f "$SERVER_LOG" ]]; then
    echo "---- $SERVER_LOG (tail) ----" >&2
    tail -c "+$((offset + 1))" "$SERVER_LOG" | tail -n 40 >&2 || true
  fi
  if [[ -s "$STDOUT_LOG" ]]; then
    echo "---- $STDOUT_LOG (tail) ----" >&2
    tail -n 20 "$STDOUT_LOG" >&2 || true
  fi
}

# SIGTERM (controlled shutdown), then SIGKILL after STOP_TIMEOUT seconds.
kill_broker() {
  local pid="$1" i
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < STOP_TIMEOUT * 4; i++)); do
    pid_alive "$pid" || return 0
    sleep 0.25
  done
  say "pid $pid did not exit within ${STOP_TIMEOUT} s of SIGTERM; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 40; i++)); do
    pid_alive "$pid" || return 0
    sleep 0.25
  done
  die "pid $pid survived SIGKILL"
}

# The security listeners that are set, as "NAME PROTOCOL PORT" lines (none by default). MTLS is an SSL
# listener that requires a client certificate; SSL and SASL_SSL only authenticate the broker.
security_listeners() {
  [[ -z "$SASL_PORT" ]] || echo "SASL_PLAINTEXT SASL_PLAINTEXT $SASL_PORT"
  [[ -z "$SSL_PORT" ]] || echo "SSL SSL $SSL_PORT"
  [[ -z "$MTLS_PORT" ]] || echo "MTLS SSL $MTLS_PORT"
  [[ -z "$SASL_SSL_PORT" ]] || echo "SASL_SSL SASL_SSL $SASL_SSL_PORT"
}

# Parses WARDEN_KAFKA_SASL_USERS ("name:password" pairs, comma- or space-separated) into USER_NAMES and
# USER_PASSWORDS. Names and passwords are limited to [A-Za-z0-9._-] so they need no quoting in the JAAS
# config or in kafka-storage's --add-scram syntax (a development broker: keep the passwords simple).
USER_NAMES=()
USER_PASSWORDS=()
parse_users() {
  local pair
  for pair in ${SASL_USERS//,/ }; do
    [[ "$pair" =~ ^([A-Za-z0-9._-]+):([A-Za-z0-9._-]+)$ ]] ||
      die "WARDEN_KAFKA_SASL_USERS must be name:password pairs of letters, digits, . _ - (got an entry that is not)"
    USER_NAMES+=("${BASH_REMATCH[1]}")
    USER_PASSWORDS+=("${BASH_REMATCH[2]}")
  done
}

# Checks the security settings before anything is written; messages never show a password.
check_security() {
  local sasl=0 tls=0 f
  [[ -n "$SASL_PORT$SASL_SSL_PORT" ]] && sasl=1
  [[ -n "$SSL_PORT$MTLS_PORT$SASL_SSL_PORT" ]] && tls=1
  if ((sasl)); then
    [[ -n "$SASL_USERS" ]] || die "WARDEN_KAFKA_SASL_PORT / WARDEN_KAFKA_SASL_SSL_PORT need WARDEN_KAFKA_SASL_USERS (e.g. alice:alice-secret)"
    parse_users
  elif [[ -n "$SASL_USERS" ]]; then
    die "WARDEN_KAFKA_SASL_USERS is set but no SASL listener is (set WARDEN_KAFKA_SASL_PORT or WARDEN_KAFKA_SASL_SSL_PORT)"
  fi
  if ((tls)); then
    [[ -n "$SSL_CERT_FILE" && -n "$SSL_KEY_FILE" ]] ||
      die "WARDEN_KAFKA_SSL_PORT / _MTLS_PORT / _SASL_SSL_PORT need WARDEN_KAFKA_SSL_CERT_FILE and WARDEN_KAFKA_SSL_KEY_FILE (PEM)"
    grep -q -- '-----BEGIN CERTIFICATE-----' "$SSL_CERT_FILE" 2>/dev/null ||
      die "WARDEN_KAFKA_SSL_CERT_FILE=$SSL_CERT_FILE is not a readable PEM certificate file"
    grep -q -- '-----BEGIN PRIVATE KEY-----' "$SSL_KEY_FILE" 2>/dev/null ||
      die "WARDEN_KAFKA_SSL_KEY_FILE=$SSL_KEY_FILE is not a readable unencrypted PKCS#8 PEM key (-----BEGIN PRIVATE KEY-----; convert with: openssl pkcs8 -topk8 -nocrypt)"
  else
    for f in SSL_CERT_FILE SSL_KEY_FILE; do
      [[ -z "${!f}" ]] || die "WARDEN_KAFKA_$f is set but no TLS listener is (set WARDEN_KAFKA_SSL_PORT, _MTLS_PORT or _SASL_SSL_PORT)"
    done
  fi
  if [[ -n "$MTLS_PORT" ]]; then
    [[ -n "$SSL_CA_FILE" ]] || die "WARDEN_KAFKA_MTLS_PORT needs WARDEN_KAFKA_SSL_CA_FILE (the CA client certificates must chain to)"
  fi
  if [[ -n "$SSL_CA_FILE" ]]; then
    grep -q -- '-----BEGIN CERTIFICATE-----' "$SSL_CA_FILE" 2>/dev/null ||
      die "WARDEN_KAFKA_SSL_CA_FILE=$SSL_CA_FILE is not a readable PEM certificate file"
  fi
}

# Appended to server.properties only when a security listener is set. PLAIN users live in each SASL
# listener's JAAS config; SCRAM credentials are written into the metadata log when data/ is formatted
# (format_storage). The PEM keystore is the broker's key followed by its certificate chain.
write_security_config() {
  local i plain_users="" name protocol port lname mechanism
  for ((i = 0; i < ${#USER_NAMES[@]}; i++)); do plain_users+=" user_${USER_NAMES[$i]}=\"${USER_PASSWORDS[$i]}\""; done
  echo "# Security listeners (WARDEN_KAFKA_SASL_PORT, _SSL_PORT, _MTLS_PORT, _SASL_SSL_PORT)."
  if [[ -n "$SSL_CERT_FILE" ]]; then
    mkdir -p "$KHOME/tls"
    cat "$SSL_KEY_FILE" "$SSL_CERT_FILE" >"$KHOME/tls/broker-keystore.pem"
    chmod 600 "$KHOME/tls/broker-keystore.pem"
    echo "ssl.keystore.type=PEM"
    echo "ssl.keystore.location=$KHOME/tls/broker-keystore.pem"
  fi
  if [[ -n "$SSL_CA_FILE" ]]; then
    echo "ssl.truststore.type=PEM"
    echo "ssl.truststore.location=$SSL_CA_FILE"
  fi
  echo "ssl.client.auth=none"
  while read -r name protocol port; do
    lname="$(echo "$name" | tr '[:upper:]' '[:lower:]')"
    case "$protocol" in
      SASL_*)
        echo "listener.name.$lname.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512"
        echo "listener.name.$lname.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required$plain_users;"
        for mechanism in scram-sha-256 scram-sha-512; do
          echo "listener.name.$lname.$mechanism.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;"
        done
        ;;
    esac
    [[ "$name" != MTLS ]] || echo "listener.name.mtls.ssl.client.auth=required"
  done < <(security_listeners)
}

write_config() {
  local listeners="PLAINTEXT://$HOST:$PORT" protocols="CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT" name protocol port
  while read -r name protocol port; do
    listeners+=",$name://$HOST:$port"
    protocols+=",$name:$protocol"
  done < <(security_listeners)
  local advertised="$listeners"
  if [[ -n "$PROXIED_PORT" ]]; then
    listeners+=",PROXIED://$HOST:$PROXIED_PORT"
    advertised+=",PROXIED://$HOST:$PROXIED_ADVERTISED_PORT"
    protocols+=",PROXIED:PLAINTEXT"
  fi
  cat >"$SERVER_PROPS" <<EOF
# Generated by scripts/kafka/broker.sh on every start; edits are overwritten.
process.roles=broker,controller
node.id=$NODE_ID
controller.quorum.voters=$QUORUM_VOTERS
listeners=$listeners,CONTROLLER://$HOST:$CONTROLLER_PORT
advertised.listeners=$advertised
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=$protocols
log.dirs=$DATA
num.partitions=1
default.replication.factor=$REPLICATION_FACTOR
min.insync.replicas=$MIN_ISR
unclean.leader.election.enable=false
auto.create.topics.enable=true
offsets.topic.replication.factor=$REPLICATION_FACTOR
# One offsets partition: one broker coordinates every group, which a failover test can find and kill.
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=$REPLICATION_FACTOR
transaction.state.log.min.isr=$MIN_ISR
transaction.state.log.num.partitions=1
share.coordinator.state.topic.replication.factor=$REPLICATION_FACTOR
share.coordinator.state.topic.min.isr=$MIN_ISR
group.initial.rebalance.delay.ms=0
# After a kill -9 the controller refuses the restarted broker until the old session
# expires (default 9 s); a short session keeps crash/restart tests fast.
broker.heartbeat.interval.ms=1000
broker.session.timeout.ms=3000
num.network.threads=2
num.io.threads=2
# Retention deletes only at the broker's retention check (Kafka's default: every 5 min), so a topic that keeps
# its records for seconds (the retention tests, a demo of a group losing records) would keep them for minutes.
# Checked every 5 s here, the first check 5 s after start (default 30 s). Development, demo and tests only.
log.retention.check.interval.ms=5000
log.initial.task.delay.ms=5000
EOF
  if [[ "$AUTHORIZER" == 1 ]]; then
    cat >>"$SERVER_PROPS" <<EOF
# WARDEN_KAFKA_AUTHORIZER=1: ACLs are enforced; the unauthenticated listeners' ANONYMOUS is a super user.
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:ANONYMOUS
EOF
  fi
  if [[ -n "$(security_listeners)" ]]; then
    write_security_config >>"$SERVER_PROPS"
    # PLAIN passwords are in the JAAS config.
    chmod 600 "$SERVER_PROPS"
  fi

  cat >"$LOG4J_BROKER" <<EOF
# Generated by scripts/kafka/broker.sh. Broker logs go to files only, never to stdout.
status = warn
appender.file.type = RollingFile
appender.file.name = file
appender.file.fileName = $SERVER_LOG
appender.file.filePattern = $SERVER_LOG.%i
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
appender.file.policies.type = Policies
appender.file.policies.size.type = SizeBasedTriggeringPolicy
appender.file.policies.size.size = 10MB
appender.file.strategy.type = DefaultRolloverStrategy
appender.file.strategy.max = 3
rootLogger.level = info
rootLogger.appenderRef.file.ref = file
logger.request.name = kafka.request.logger
logger.request.level = warn
# Full config dumps ("KafkaConfig values: ...", ~1000 lines per start); server.properties is next to this file.
logger.config.name = org.apache.kafka.common.config.AbstractConfig
logger.config.level = warn
EOF
}

# Written via rename: a tool JVM started a moment ago may be reading the previous copy.
write_tools_log4j() {
  cat >"$LOG4J_TOOLS.$$" <<EOF
# Generated by scripts/kafka/broker.sh. CLI tools: warnings and errors on stderr only.
status = warn
appender.err.type = Console
appender.err.name = err
appender.err.target = SYSTEM_ERR
appender.err.layout.type = PatternLayout
appender.err.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = warn
rootLogger.appenderRef.err.ref = err
EOF
  mv -f "$LOG4J_TOOLS.$$" "$LOG4J_TOOLS"
}

# SCRAM users can only be added when data/ is first formatted (kafka-storage format --add-scram); a
# marker records which users an existing data/ holds, so a changed WARDEN_KAFKA_SASL_USERS is refused
# instead of silently keeping the old credentials.
format_storage() {
  local scram=() marker="$DATA/.warden-sasl-users" digest="" i mechanism
  if ((${#USER_NAMES[@]} > 0)); then
    digest="$(printf '%s' "$SASL_USERS" | { if command -v sha256sum >/dev/null 2>&1; then sha256sum; else shasum -a 256; fi; } | cut -d' ' -f1)"
    if [[ -f "$DATA/meta.properties" ]]; then
      [[ -f "$marker" && "$(cat "$marker")" == "$digest" ]] ||
        die "$DATA was formatted with other SASL users than WARDEN_KAFKA_SASL_USERS (SCRAM users are written at format time); start with WARDEN_KAFKA_FRESH=1"
    fi
    for ((i = 0; i < ${#USER_NAMES[@]}; i++)); do
      for mechanism in SCRAM-SHA-256 SCRAM-SHA-512; do
        scram+=(--add-scram "$mechanism=[name=${USER_NAMES[$i]},password=${USER_PASSWORDS[$i]}]")
      done
    done
  fi
  if ! "$JAVA" -Xmx256m -Dlog4j2.configurationFile="$LOG4J_TOOLS" -cp "$LIBS/*" \
      kafka.tools.StorageTool format -t "$CLUSTER_ID" -c "$SERVER_PROPS" --ignore-formatted ${scram[@]+"${scram[@]}"} \
      >"$LOGS/format.log" 2>&1; then
    cat "$LOGS/format.log" >&2
    die "formatting $DATA failed (delete it, or start with WARDEN_KAFKA_FRESH=1)"
  fi
  [[ -z "$digest" ]] || echo "$digest" >"$marker"
}

# setsid (where available) + nohup: the broker outlives the calling shell and its terminal.
# Only ever called in a background subshell, which it replaces.
detach() {
  if command -v setsid >/dev/null 2>&1; then exec setsid nohup "$@"; else exec nohup "$@"; fi
}

launch() {
  rm -f "$PIDFILE"
  # The inner shell writes its own pid before exec'ing java, so the pid file names the JVM
  # even if setsid forks.
  (
    cd "$KHOME"
    detach bash -c 'echo $$ >"$1.tmp" && mv "$1.tmp" "$1" && shift && exec "$@"' _ "$PIDFILE" \
      "$JAVA" -Xms256m -Xmx512m -XX:+UseG1GC -XX:ErrorFile="$LOGS/hs_err_%p.log" \
      -Djava.awt.headless=true -Dkafka.logs.dir="$LOGS" \
      -Dlog4j2.configurationFile="$LOG4J_BROKER" \
      -cp "$LIBS/*" kafka.Kafka "$SERVER_PROPS" \
      </dev/null >>"$STDOUT_LOG" 2>&1 9>&- &
  )
  local i pid
  for ((i = 0; i < 100; i++)); do
    pid="$(read_pid)"
    [[ -n "$pid" ]] && { echo "$pid"; return 0; }
    sleep 0.05
  done
  die "broker process did not write $PIDFILE"
}

# Ready = the startup line appears in the log written after $2, or the client port accepts
# connections (it opens only once the broker is unfenced).
wait_ready() {
  local pid="$1" offset="$2" deadline=$(($(now_ms) + START_TIMEOUT * 1000))
  while (($(now_ms) < deadline)); do
    if ! pid_alive "$pid"; then
      print_log_tail "$offset"
      rm -f "$PIDFILE"
      die "broker pid $pid exited during startup"
    fi
    if port_open "$PORT"; then return 0; fi
    if [[ -f "$SERVER_LOG" ]] &&
      tail -c "+$((offset + 1))" "$SERVER_LOG" | grep -F 'Kafka Server started' >/dev/null; then
      return 0
    fi
    sleep 0.25
  done
  return 1
}

# The security listeners open with the client listener; this only covers the moment in between.
wait_port() {
  local i
  for ((i = 0; i < 40; i++)); do
    port_open "$2" && return 0
    pid_alive "$1" || return 1
    sleep 0.25
  done
  return 1
}

cmd_install() {
  lock
  if installed; then say "Kafka $KAFKA_VERSION jars already installed in $LIBS"; return 0; fi
  install_jars
}

cmd_start() {
  local t0 pid offset
  t0=$(now_ms)
  lock
  check_security
  install_jars

  pid="$(read_pid)"
  if [[ -n "$pid" ]]; then
    if pid_alive "$pid" && is_ours "$pid"; then
      if [[ "$FRESH" == 1 ]]; then
        say "WARDEN_KAFKA_FRESH=1: restarting running broker pid $pid with an empty data dir"
        kill_broker "$pid"
        rm -f "$PIDFILE"
      elif [[ "$WAIT_READY" == 0 ]]; then
        say "already running pid $pid (not waiting for it to be ready)"
        return 0
      elif port_open "$PORT" || wait_ready "$pid" "$(file_size "$SERVER_LOG")"; then
        say "already running pid $pid on $HOST:$PORT"
        return 0
      else
        die "pid $pid is alive but $HOST:$PORT does not accept connections after ${START_TIMEOUT} s (try: $0 stop)"
      fi
    else
      say "removing stale pid file (pid $pid is not a running broker)"
      rm -f "$PIDFILE"
    fi
  fi

  local p
  for p in "${ALL_PORTS[@]}"; do
    if port_open "$p"; then
      die "$HOST:$p is already in use by a process this script did not start (no live broker in $PIDFILE). Free the port (see: ss -ltnp 'sport = :$p') or set WARDEN_KAFKA_PORT / WARDEN_KAFKA_CONTROLLER_PORT"
    fi
  done

  if [[ "$FRESH" == 1 ]]; then rm -rf "$DATA"; fi
  mkdir -p "$DATA" "$LOGS"
  write_config
  write_tools_log4j
  format_storage

  offset="$(file_size "$SERVER_LOG")"
  pid="$(launch)"
  if [[ "$WAIT_READY" == 0 ]]; then
    say "launched node $NODE_ID pid $pid on $HOST:$PORT (not waiting for it to be ready)"
    return 0
  fi
  if ! wait_ready "$pid" "$offset"; then
    print_log_tail "$offset"
    # A broker that missed the deadline is stopped, so a failed start never leaves a stray JVM.
    kill_broker "$pid"
    rm -f "$PIDFILE"
    die "broker not ready within ${START_TIMEOUT} s"
  fi
  local name protocol port extra=""
  while read -r name protocol port; do
    wait_port "$pid" "$port" || { kill_broker "$pid"; rm -f "$PIDFILE"; die "listener $name on $HOST:$port did not open"; }
    extra+=", $name on $port"
  done < <(security_listeners)
  say "started pid $pid on $HOST:$PORT$extra in $(secs_since "$t0") s"
}

cmd_stop() {
  local pid t0
  lock
  pid="$(read_pid)"
  if [[ -z "$pid" ]]; then say "not running"; return 0; fi
  if ! pid_alive "$pid" || ! is_ours "$pid"; then
    rm -f "$PIDFILE"
    say "not running (removed stale pid file for pid $pid)"
    return 0
  fi
  t0=$(now_ms)
  kill_broker "$pid"
  rm -f "$PIDFILE"
  say "stopped pid $pid in $(secs_since "$t0") s"
}

# kill -9: a crash, for fault tests. The data dir stays; the next start recovers from it.
cmd_kill() {
  local pid i
  lock
  pid="$(read_pid)"
  if [[ -z "$pid" ]] || ! pid_alive "$pid" || ! is_ours "$pid"; then
    rm -f "$PIDFILE"
    say "not running"
    return 0
  fi
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 40; i++)); do
    pid_alive "$pid" || { rm -f "$PIDFILE"; say "killed pid $pid (SIGKILL)"; return 0; }
    sleep 0.25
  done
  die "pid $pid survived SIGKILL"
}

cmd_status() {
  local pid
  pid="$(read_pid)"
  if [[ -n "$pid" ]] && pid_alive "$pid" && is_ours "$pid"; then
    if port_open "$PORT"; then
      say "running pid $pid on $HOST:$PORT (Kafka $KAFKA_VERSION, home $KHOME)"
      return 0
    fi
    say "pid $pid is alive but $HOST:$PORT does not accept connections"
    return 1
  fi
  say "not running"
  return 1
}

# Each tool runs in its own JVM (Kafka tools call System.exit); the exit code is the tool's.
cmd_tool() {
  [[ $# -ge 1 ]] || die "usage: $0 tool <main class> [args...]  (e.g. org.apache.kafka.tools.TopicCommand --bootstrap-server $HOST:$PORT --list)"
  lock
  install_jars >&2
  write_tools_log4j
  unlock
  exec "$JAVA" -Xms64m -Xmx512m -Dlog4j2.configurationFile="$LOG4J_TOOLS" -cp "$LIBS/*" "$@"
}

usage() {
  cat <<EOF
usage: $0 install|start|stop|kill|status|tool <main class> [args...]
  env: WARDEN_KAFKA_HOME=$KHOME WARDEN_KAFKA_PORT=$PORT
       WARDEN_KAFKA_CONTROLLER_PORT=$CONTROLLER_PORT WARDEN_KAFKA_FRESH=$FRESH
       WARDEN_KAFKA_START_TIMEOUT=$START_TIMEOUT
  cluster node (see cluster.sh): WARDEN_KAFKA_NODE_ID=$NODE_ID WARDEN_KAFKA_QUORUM_VOTERS=$QUORUM_VOTERS
       WARDEN_KAFKA_REPLICATION_FACTOR=$REPLICATION_FACTOR WARDEN_KAFKA_LIBS=$LIBS WARDEN_KAFKA_WAIT=$WAIT_READY
  optional listeners: WARDEN_KAFKA_SASL_PORT WARDEN_KAFKA_SSL_PORT WARDEN_KAFKA_MTLS_PORT
       WARDEN_KAFKA_SASL_SSL_PORT, with WARDEN_KAFKA_SASL_USERS, WARDEN_KAFKA_SSL_CERT_FILE,
       WARDEN_KAFKA_SSL_KEY_FILE, WARDEN_KAFKA_SSL_CA_FILE, WARDEN_KAFKA_AUTHORIZER=$AUTHORIZER (see scripts/kafka/README.md)
EOF
}

cmd="${1:-}"
[[ $# -gt 0 ]] && shift
case "$cmd" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  kill) cmd_kill ;;
  status) cmd_status ;;
  tool) cmd_tool "$@" ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
