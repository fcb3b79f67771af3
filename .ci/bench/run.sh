#!/usr/bin/env bash
# Benchmarks (figures, not pass/fail): starts Mnemos (dev profile, offline model) on port 8089 and
# measures step writes over HTTP with 64 concurrent sessions. Uses wrk when installed
# (apt-get install wrk), else a JDK HttpClient load generator; then stops the service.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash .ci/services.sh
mvn -B -q package -DskipTests -Dquarkus.profile=dev
PORT=${MNEMOS_BENCH_PORT:-8089}
URL="http://localhost:$PORT"
java -Dquarkus.http.port="$PORT" -Dquarkus.log.level=WARN -jar server/target/quarkus-app/quarkus-run.jar > /tmp/mnemos-bench.log 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do curl -sf "$URL/q/health/ready" >/dev/null && break; sleep 1; done
SESSIONS=${SESSIONS:-64}
DURATION=${SECONDS_PER_RUN:-20}
if command -v wrk >/dev/null; then
  export TOKEN=$(curl -sf "$URL/dev/token?user=bench-$RANDOM")
  export IDS_FILE=$(mktemp)
  for _ in $(seq 1 "$SESSIONS"); do
    curl -sf -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"goal":"bench"}' \
      "$URL/v1/sessions" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sessionId"])' >> "$IDS_FILE"
  done
  wrk -t2 -c"$SESSIONS" -d5s -s .ci/bench/steps.lua "$URL" > /dev/null     # warm-up
  echo "HTTP step writes, $SESSIONS connections over $SESSIONS sessions, wrk (target >= 5000 writes/s):"
  wrk -t2 -c"$SESSIONS" -d"${DURATION}s" --latency -s .ci/bench/steps.lua "$URL" | tee /tmp/mnemos-wrk.txt
  # the raw Redis round trip in the same run, at the same concurrency, for the ratio
  RAW=$(redis-benchmark -h 127.0.0.1 -p 6379 -c "$SESSIONS" -n 200000 -t get -q | tr '\r' '\n' | grep -o 'GET: [0-9.]*' | tail -1 | cut -d' ' -f2)
  HTTP=$(grep -o 'Requests/sec: *[0-9.]*' /tmp/mnemos-wrk.txt | awk '{print $2}')
  python3 -c "print(f'raw Redis GET with $SESSIONS clients: {float(\"$RAW\"):.0f} ops/s; HTTP step writes are {float(\"$HTTP\")/float(\"$RAW\")*100:.1f}% of it')"
else
  java .ci/bench/HttpStepBench.java "$URL" "$SESSIONS" "$DURATION"
fi
