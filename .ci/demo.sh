#!/usr/bin/env bash
# Plays a scripted conversation with the task-breakdown agent through the HTTP API and prints,
# for every turn, the reply, the session version, the step pointer and the plan versions; at the
# end the promotion report, the session's version history and the user's profile.
#
#   .ci/demo.sh                       # service at http://localhost:8080, token from GET /dev/token
#   MNEMOS_URL=http://host:8080 MNEMOS_TOKEN=<jwt> .ci/demo.sh
#
# Needs curl and jq (or python3). The service must run; .ci/main starts it in the dev profile.
set -euo pipefail

URL="${MNEMOS_URL:-http://localhost:8080}"
WAIT="${MNEMOS_WAIT:-90}"
USER_ID="${MNEMOS_USER:-demo-$(date +%s)-$RANDOM}"

if [[ ${MNEMOS_JSON:-} == python3 ]]; then JSON=python3; elif command -v jq >/dev/null; then JSON=jq; elif command -v python3 >/dev/null; then JSON=python3; else
  echo "demo.sh needs jq or python3" >&2; exit 2; fi

for ((i = 0; i < WAIT; i++)); do
  curl -fsS -o /dev/null "$URL/q/health/ready" 2>/dev/null && break
  [[ $i -eq 0 ]] && echo "waiting for Mnemos at $URL ..."
  sleep 1
done
curl -fsS -o /dev/null "$URL/q/health/ready" || { echo "Mnemos is not ready at $URL" >&2; exit 1; }

TOKEN="${MNEMOS_TOKEN:-$(curl -fsS "$URL/dev/token?user=$USER_ID")}"
AUTH=(-H "Authorization: Bearer $TOKEN")

# body <sessionId> <message>: the JSON request body.
body() {
  if [[ $JSON == jq ]]; then jq -cn --arg s "$1" --arg m "$2" '{message: $m} + (if $s == "" then {} else {sessionId: $s} end)'
  else python3 -c 'import json,sys; d={"message":sys.argv[2]}; d.update({"sessionId":sys.argv[1]} if sys.argv[1] else {}); print(json.dumps(d))' "$1" "$2"; fi
}

# field <json> <name>: one top-level string or number field ("" when absent).
field() {
  if [[ $JSON == jq ]]; then jq -r --arg f "$2" '.[$f] // ""' <<<"$1"
  else python3 -c 'import json,sys; v=json.loads(sys.argv[1]).get(sys.argv[2]); print("" if v is None else v)' "$1" "$2"; fi
}

# member <json> <name>: one top-level member as JSON (null when absent).
member() {
  if [[ $JSON == jq ]]; then jq -c --arg f "$2" '.[$f]' <<<"$1"
  else python3 -c 'import json,sys; print(json.dumps(json.loads(sys.argv[1]).get(sys.argv[2]), ensure_ascii=False))' "$1" "$2"; fi
}

# show <json>: the turn as the demo prints it.
show() {
  if [[ $JSON == jq ]]; then
    jq -r '"< agent [\(.intent)]  session v\(.version)  step \(.stepPointer.index // "-"):\(.stepPointer.name // "-")  status \(.status)",
      "  plans: " + (if (.plans | length) == 0 then "(none)" else ([.plans[] | "v\(.version) score=\(.score // "-")"] | join(", ")) end),
      (.reply | split("\n") | map("  | " + .) | join("\n"))' <<<"$1"
  else
    python3 - "$1" <<'PY'
import json, sys
t = json.loads(sys.argv[1]); sp = t.get("stepPointer") or {}
print(f'< agent [{t["intent"]}]  session v{t["version"]}  step {sp.get("index", "-")}:{sp.get("name", "-")}  status {t["status"]}')
plans = ", ".join(f'v{p["version"]} score={p.get("score") if p.get("score") is not None else "-"}' for p in t.get("plans", []))
print("  plans: " + (plans or "(none)"))
print("\n".join("  | " + l for l in t["reply"].split("\n")))
PY
  fi
}

pretty() { if [[ $JSON == jq ]]; then jq . <<<"$1"; else python3 -m json.tool --no-ensure-ascii <<<"$1"; fi; }

SESSION=""
LAST=""
say() {
  echo
  echo "> user: $1"
  LAST=$(curl -fsS "${AUTH[@]}" -H 'Content-Type: application/json' -d "$(body "$SESSION" "$1")" "$URL/v1/agent/chat")
  SESSION=$(field "$LAST" sessionId)
  show "$LAST"
}

echo "Mnemos demo at $URL as user $USER_ID"
say "I want to plan a 5-day trip to Japan"
say "Budget 5000 yuan this time. No overnight flights. I prefer trains this time."
say "以后都用中文回答"
say "OK, make the plan"
say "Hmm, please go back to plan 1"
say "Done, thanks!"

echo
echo "== promotion report (session $SESSION)"
pretty "$(member "$LAST" promotion)"

echo
echo "== session history"
HISTORY=$(curl -fsS "${AUTH[@]}" "$URL/v1/sessions/$SESSION/versions" || echo '[]')
if [[ $JSON == jq ]]; then jq -r '.[] | "  v\(.version) \(.type) \(.note // "")"' <<<"$HISTORY"
else python3 -c 'import json,sys; [print("  v%s %s %s" % (e["version"], e["type"], e.get("note") or "")) for e in json.loads(sys.argv[1])]' "$HISTORY"; fi

echo
echo "== profile of $USER_ID"
PROFILE=$(curl -sS "${AUTH[@]}" -w '\n%{http_code}' "$URL/v1/profile")
CODE=${PROFILE##*$'\n'}
[[ $CODE == 200 ]] && pretty "${PROFILE%$'\n'*}" || echo "  GET /v1/profile answered $CODE"

echo
echo "== a new task for the same user: the profile is read before the first step"
SESSION=""
say "Help me prepare a talk about Redis"
