#!/usr/bin/env bash
# Footprint benchmark (figures, not pass/fail): what Mnemos costs an application. Generates four small
# Quarkus apps from .ci/bench/footprint/ (a REST endpoint calling an @RegisterAiService through the
# OpenAI extension) into a temporary directory and builds them against this checkout's extension:
#   base      the app without Mnemos
#   base-orm  the app with Hibernate ORM Panache, the Postgres driver and a datasource (what the profile layer needs)
#   mnemos    the app with quarkus-mnemos and @SessionMemory on its AI service method
#   session   the app with quarkus-mnemos-session (session memory with Redis alone: no ORM, no datasource) and the
#             same @SessionMemory method
# and prints, side by side: target/quarkus-app size and jar count, start time (to the first answer of
# /ping; STARTS starts, min and median) and RSS after start, then what each Mnemos app adds to the app it
# extends (session over base, mnemos over base-orm: median start, RSS of the last start) and the load average.
# It installs this checkout's runtime, deployment, session and session-deployment modules into the local Maven repository first.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
STARTS=${STARTS:-5}
bash .ci/services.sh
VERSION=$(./mvnw -q -B help:evaluate -Dexpression=project.version -DforceStdout 2>/dev/null | tail -1)
QUARKUS=$(./mvnw -q -B help:evaluate -Dexpression=quarkus.version -DforceStdout 2>/dev/null | tail -1)
QL4J=$(./mvnw -q -B help:evaluate -Dexpression=quarkus-langchain4j.version -DforceStdout 2>/dev/null | tail -1)
echo "installing quarkus-mnemos $VERSION (Quarkus $QUARKUS, quarkus-langchain4j $QL4J) into the local repository"
./mvnw -B -q install -DskipTests -pl runtime,deployment,session,session-deployment -am > /tmp/mnemos-footprint-install.log 2>&1 \
  || { tail -40 /tmp/mnemos-footprint-install.log; exit 1; }
WORK=$(mktemp -d /tmp/mnemos-footprint.XXXX)
PORT=${FOOTPRINT_PORT:-8097}

generate() { # name, extra dependencies (XML), extra properties, java source variant
  local dir="$WORK/$1"
  mkdir -p "$dir/src/main/java/org/acme" "$dir/src/main/resources"
  sed -e "s|@QUARKUS@|$QUARKUS|" -e "s|@QL4J@|$QL4J|" -e "s|@NAME@|$1|" \
    -e "s|<!-- @DEPENDENCIES@ -->|$2|" .ci/bench/footprint/pom.xml > "$dir/pom.xml"
  printf '%s\n' "$3" | cat .ci/bench/footprint/application.properties - > "$dir/src/main/resources/application.properties"
  cp ".ci/bench/footprint/$4/"*.java "$dir/src/main/java/org/acme/"
  (cd "$dir" && "$ROOT/mvnw" -B -q package -DskipTests > build.log 2>&1) || { tail -40 "$dir/build.log"; exit 1; }
}

declare -A SIZE_KB MEDIAN_MS RSS_MB
measure() { # name
  local app="$WORK/$1/target/quarkus-app" times=() rss=0
  for _ in $(seq 1 "$STARTS"); do
    local start end pid
    start=$(date +%s%N)
    java -Dquarkus.http.port="$PORT" -jar "$app/quarkus-run.jar" > "$WORK/$1/run.log" 2>&1 &
    pid=$!
    until curl -sf "http://localhost:$PORT/ping" > /dev/null 2>&1; do
      kill -0 $pid 2>/dev/null || { tail -20 "$WORK/$1/run.log"; exit 1; }
      sleep 0.02
    done
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
    rss=$(ps -o rss= -p $pid | tr -d ' ')
    kill $pid; wait $pid 2>/dev/null || true
  done
  local sorted size jars
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  size=$(du -sk "$app" | cut -f1)
  jars=$(find "$app" -name '*.jar' | wc -l)
  SIZE_KB[$1]=$size
  MEDIAN_MS[$1]=$(echo "$sorted" | sed -n "$(( (STARTS + 1) / 2 ))p")
  RSS_MB[$1]=$(( rss / 1024 ))
  printf '%-9s  %7.1f MB  %4d jars  start min %5d ms  median %5d ms  RSS after start %4d MB\n' "$1" \
    "$(echo "$size/1024" | bc -l)" "$jars" "$(echo "$sorted" | head -1)" \
    "$(echo "$sorted" | sed -n "$(( (STARTS + 1) / 2 ))p")" "$(( rss / 1024 ))"
}

ORM='<dependency><groupId>io.quarkus</groupId><artifactId>quarkus-hibernate-orm-panache</artifactId></dependency><dependency><groupId>io.quarkus</groupId><artifactId>quarkus-jdbc-postgresql</artifactId></dependency>'
MNEMOS="$ORM<dependency><groupId>dev.mnemos</groupId><artifactId>quarkus-mnemos</artifactId><version>$VERSION</version></dependency>"
DATASOURCE='quarkus.datasource.db-kind=postgresql
quarkus.datasource.username=postgres
quarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:5432/test?currentSchema=footprint'
generate base "" "" plain
generate base-orm "$ORM" "$DATASOURCE" plain
generate mnemos "$MNEMOS" "$DATASOURCE
quarkus.redis.hosts=redis://127.0.0.1:6379" mnemos
generate session "<dependency><groupId>dev.mnemos</groupId><artifactId>quarkus-mnemos-session</artifactId><version>$VERSION</version></dependency>" \
  "quarkus.redis.hosts=redis://127.0.0.1:6379" mnemos
echo "== footprint on $(nproc) cores, $STARTS starts each (first start included in min/median); load average before: $(cut -d" " -f1-3 /proc/loadavg)"
for app in base base-orm mnemos session; do measure "$app"; done
added() { # app, the app it extends
  printf '%-9s over %-8s  +%5.1f MB  start median %+5d ms  RSS %+4d MB\n' "$1" "$2" \
    "$(echo "(${SIZE_KB[$1]} - ${SIZE_KB[$2]})/1024" | bc -l)" "$(( MEDIAN_MS[$1] - MEDIAN_MS[$2] ))" \
    "$(( RSS_MB[$1] - RSS_MB[$2] ))"
}
echo "== what Mnemos adds (targets: session layer <= 10 MB, <= 400 ms, <= 40 MB; with the profile layer <= 1000 ms, <= 90 MB)"
added session base
added mnemos base-orm
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "apps in $WORK"
