#!/usr/bin/env bash
# Benchmarks (figures, not pass/fail): starts Mnemos (dev profile, offline model, history retention
# 1,000 versions so version 10 of 1,000 can be read) on port 8089; prints the raw Redis and Postgres
# round trips as the floor, the one-client figures of the issue-13 workload (HttpSessionBench.java),
# session ends (HttpEndBench.java), then step writes over HTTP with 64 concurrent sessions. Uses wrk (installed with apt-get when
# missing and run as root), else a JDK HttpClient load generator; then stops the service and runs
# the in-process benchmarks (mvn -Pbench test), printing their reports. The benchmarks drive one user
# (one token) at full speed, which the per-user fair share (mnemos.limits.*) exists to refuse: it is off here.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash .ci/services.sh
./mvnw -B -q package -DskipTests -Dquarkus.profile=dev
PORT=${MNEMOS_BENCH_PORT:-8089}
URL="http://localhost:$PORT"
java ${JAVA_BENCH_OPTS:--Xms2g -Xmx2g -XX:+AlwaysPreTouch} -Dquarkus.http.port="$PORT" -Dquarkus.log.level=WARN \
  -Dquarkus.mnemos.session.history-retention=1000 -Dmnemos.limits.requests-per-second=0 -Dmnemos.limits.max-concurrent=0 \
  -jar server/target/quarkus-app/quarkus-run.jar > /tmp/mnemos-bench.log 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do curl -sf "$URL/q/health/ready" >/dev/null && break; sleep 1; done
echo "machine load: $(uptime)"
echo "== floor: raw round trips at 1 client"
redis-benchmark -h 127.0.0.1 -p 6379 -c 1 -n 20000 -t get --csv | tail -1 | python3 -c '
import csv,sys
r=next(csv.reader(sys.stdin))
print(f"raw Redis GET        : avg {float(r[2]):.3f} ms  p50 {float(r[4]):.3f} ms  p99 {float(r[6]):.3f} ms")'
echo "SELECT 1;" > /tmp/mnemos-select1.sql
pgbench -h 127.0.0.1 -U postgres -n -c 1 -T 5 -f /tmp/mnemos-select1.sql test 2>/dev/null | grep -o 'latency average = [0-9.]* ms' \
  | sed 's/^/raw Postgres SELECT 1: /'
echo "== one client over HTTP, the issue-13 workload (1,000 steps)"
java .ci/bench/HttpSessionBench.java "$URL" 1000
echo "== session ends over HTTP: 1 client (p50/p99), then concurrent clients (ends/s; target p50 <= 20 ms, >= 100/s)"
java .ci/bench/HttpEndBench.java "$URL" "${END_SESSIONS:-300}" "${END_CLIENTS:-8}" "${END_PER_CLIENT:-100}"
SESSIONS=${SESSIONS:-64}
if ! command -v wrk >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get install -y -q wrk >/dev/null 2>&1 || echo "wrk could not be installed; using the JDK load generator"
fi
DURATION=${SECONDS_PER_RUN:-20}
if command -v wrk >/dev/null; then
  export TOKEN=$(curl -sf "$URL/dev/token?user=bench-$RANDOM")
  export IDS_FILE=$(mktemp)
  for _ in $(seq 1 "$SESSIONS"); do
    curl -sf -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"goal":"bench"}' \
      "$URL/v1/sessions" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sessionId"])' >> "$IDS_FILE"
  done
  # warm-up: the JIT takes about 50,000 requests to settle on this path (with 5 s of warm-up the
  # measured run still compiled: 4,500/s in a first 10 s, 10,600/s in the 25 s after it)
  wrk -t2 -c"$SESSIONS" -d"${WARMUP_SECONDS:-15}s" -s .ci/bench/steps.lua "$URL" > /dev/null
  echo "HTTP step writes, $SESSIONS connections over $SESSIONS sessions, wrk (target >= 10000 writes/s):"
  wrk -t2 -c"$SESSIONS" -d"${DURATION}s" --latency -s .ci/bench/steps.lua "$URL" | tee /tmp/mnemos-wrk.txt
  # the raw Redis round trip in the same run, at the same concurrency, for the ratio
  RAW=$(redis-benchmark -h 127.0.0.1 -p 6379 -c "$SESSIONS" -n 200000 -t get -q | tr '\r' '\n' | grep -o 'GET: [0-9.]*' | tail -1 | cut -d' ' -f2)
  HTTP=$(grep -o 'Requests/sec: *[0-9.]*' /tmp/mnemos-wrk.txt | awk '{print $2}')
  python3 -c "print(f'raw Redis GET with $SESSIONS clients: {float(\"$RAW\"):.0f} ops/s; HTTP step writes are {float(\"$HTTP\")/float(\"$RAW\")*100:.1f}% of it')"
else
  java .ci/bench/HttpStepBench.java "$URL" "$SESSIONS" "$DURATION"
fi
# The in-process figures (session store, checkpoint size, bytes, the @SessionMemory step overhead)
# come from the test-scoped benchmarks: stop the packaged server first so they have the machine.
if [ "${IN_PROCESS:-1}" = 1 ]; then
  kill $PID 2>/dev/null || true
  wait $PID 2>/dev/null || true
  echo "== in process (mvn -Pbench test; IN_PROCESS=0 skips this part)"
  # LOCOMO=<absolute path to locomo10.json> adds the LoCoMo replay (CC BY-NC 4.0, not in this repository)
  ./mvnw -B -q -Pbench test -pl server -am ${LOCOMO:+-Dbench.locomo=$LOCOMO} > /tmp/mnemos-bench-mvn.log 2>&1 || { tail -40 /tmp/mnemos-bench-mvn.log; exit 1; }
  cat server/target/bench/session.txt server/target/bench/session-bytes.txt server/target/bench/injection.txt server/target/bench/render.txt
  # a streamed step's time to first token, with and without Mnemos, in the consumer app against its OpenAI stub
  ./mvnw -B -q test -pl integration-tests -am -Dtest=StreamedFirstTokenBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
    > /tmp/mnemos-bench-ttft.log 2>&1 || { tail -40 /tmp/mnemos-bench-ttft.log; exit 1; }
  cat integration-tests/target/bench/first-token.txt
fi
