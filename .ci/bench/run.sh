#!/usr/bin/env bash
# Benchmarks (figures, not pass/fail): starts Mnemos (dev profile, offline model) on port 8089,
# measures step writes over HTTP with 64 concurrent sessions, then stops the service.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash .ci/services.sh
mvn -B -q package -DskipTests -Dquarkus.profile=dev
PORT=${MNEMOS_BENCH_PORT:-8089}
java -Dquarkus.http.port="$PORT" -Dquarkus.log.level=WARN -jar target/quarkus-app/quarkus-run.jar > /tmp/mnemos-bench.log 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do curl -sf "http://localhost:$PORT/q/health/ready" >/dev/null && break; sleep 1; done
java .ci/bench/HttpStepBench.java "http://localhost:$PORT" "${SESSIONS:-64}" "${SECONDS_PER_RUN:-20}"
