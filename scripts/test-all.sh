#!/usr/bin/env bash
# The one test command (README, CI): installs what the tests need, then runs every suite.
#   unit → integration on embedded PGlite and on a real PostgreSQL (side by side, the app's
#   build beside them) → sandbox contract → end-to-end in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1

# Each stage's time as it ends ("[test] unit: 16 s"), and all of them again at the exit, passed
# or not, so a run's log says where its minutes went.
stage_started=$SECONDS
stage_times=()
stage_done() {
  local line="$1: $((SECONDS - stage_started)) s"
  echo "[test] $line"
  stage_times+=("$line")
  stage_started=$SECONDS
}
report_times() {
  local status=$?
  [ "$status" = 0 ] || stage_times+=("the stage that failed (exit $status): $((SECONDS - stage_started)) s")
  echo "[test] $((SECONDS / 60)) min $((SECONDS % 60)) s in all:"
  printf '[test]   %s\n' "${stage_times[@]}"
}
trap report_times EXIT

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
{ command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } || need_apt+=(postgresql)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "[test] installing ${need_apt[*]} from Debian"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

[ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm install --no-audit --no-fund

# A throw-away PostgreSQL on a loopback port, stopped on exit.
pg_bin=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")
pg_dir=$(mktemp -d /tmp/dgis-pg.XXXXXX)
chmod 755 "$pg_dir"
# Below Linux's ephemeral range (32768+), where an outgoing connection could be holding it, and below
# the fixed ports of the end-to-end run and the benches (25433 and up).
pg_port=$((20000 + RANDOM % 5000))
as_pg() { if [ "$(id -u)" = 0 ]; then chown -R postgres "$pg_dir"; runuser -u postgres -- "$@"; else "$@"; fi; }
as_pg "$pg_bin/initdb" -D "$pg_dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1" start >/dev/null
trap 'report_times; as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$pg_dir"' EXIT
as_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres dgis_test
export TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$pg_port/dgis_test"
stage_done "setup (packages, PostgreSQL)"

echo "[test] unit"
npx vitest run --project unit
stage_done "unit"
# The integration suite on each database, in two runs side by side per database: the files
# that mostly wait on a clock (a minute's budget window, pg-boss's schedules, the history
# import's pacing, a child's restarts) in one, the rest in the other. Each run takes its files
# one at a time against a database and a sandbox of its own and mostly waits on them, so the
# four together take little more than the longest. Ports of their own where a test needs a
# fixed one (only the rest use any). The other runs' output is printed when all have finished.
pg_name="PostgreSQL $(basename "$(dirname "$pg_bin")")"
waiting=(tests/integration/order-import.test.ts tests/integration/request-budget.test.ts
  tests/integration/periodic-jobs.test.ts tests/integration/supervise-child.test.ts)
not_waiting=()
for file in "${waiting[@]}"; do not_waiting+=(--exclude "$file"); done
as_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres dgis_test_waiting
# The app's production build goes beside them (they leave cores idle): the end-to-end run's
# launcher then finds it fresh (scripts/lib/build-freshness.ts) and serves at once. `node` is
# the project's pinned Node here (npm puts node_modules/.bin first).
build_log="$pg_dir/build.log"
node node_modules/next/dist/bin/next build >"$build_log" 2>&1 &
build_run=$!
echo "[test] integration on embedded PGlite and on $pg_name, two runs each, side by side (and the app's build)"
runs=()
beside() { # beside NAME COMMAND…: runs it in the background, its output to a log of its own
  local log="$pg_dir/integration-${#runs[@]}.log"
  "${@:2}" >"$log" 2>&1 &
  runs+=("$!|$log|$1")
}
beside "embedded PGlite, the files that wait" npx vitest run --project integration "${waiting[@]}"
beside "$pg_name" env TEST_DATABASE_URL="$TEST_POSTGRES_URL" NOTIFY_TEST_SMTP_PORT=4693 NOTIFY_TEST_CHAT_PORT=4694 \
  npx vitest run --project integration "${not_waiting[@]}"
beside "$pg_name, the files that wait" env TEST_DATABASE_URL="${TEST_POSTGRES_URL%/*}/dgis_test_waiting" \
  npx vitest run --project integration "${waiting[@]}"
failed=()
npx vitest run --project integration "${not_waiting[@]}" || failed+=("embedded PGlite")
for run in "${runs[@]}"; do
  IFS="|" read -r pid log name <<<"$run"
  status=0
  wait "$pid" || status=$?
  echo "[test] integration on $name"
  cat "$log"
  [ "$status" = 0 ] || failed+=("$name")
done
[ ${#failed[@]} = 0 ] || { printf '[test] integration failed on %s\n' "${failed[@]}"; exit 1; }
build_status=0
wait "$build_run" || build_status=$?
[ "$build_status" = 0 ] || { cat "$build_log"; echo "[test] the app's build failed"; exit "$build_status"; }
stage_done "integration (both databases) and the build"
echo "[test] sandbox contract"
npx vitest run --project contract
stage_done "sandbox contract"
echo "[test] end-to-end in Chromium"
npx playwright test
stage_done "end-to-end"
echo "[test] the edge against the newest Next 16 minor"
bash scripts/test-next-upgrade.sh
stage_done "next upgrade"
