#!/usr/bin/env bash
# A firmware-release session as a person would run it, without a device (issue 16):
#   - `sim --terminal manual` runs as a separate process: its virtual terminal waits for an operator;
#   - `run --terminal manual` runs in a real terminal (tmux), against the simulator's URL;
#   - this script reads the screen (capture-pane), answers the plan with Enter, and for each step does
#     what the instruction says on the virtual terminal, through its action endpoint;
#   - midway it presses Ctrl+C (the session stops, passed tests are kept), then runs the same command
#     with --resume and finishes the session;
#   - it checks the result (certified, labels, nothing passed run twice) and saves the screen.
# Usage: scripts/check-manual-session.sh [OUT_DIR]   (default reports/manual-session)
#   SETTLE=<duration>: the run's --settle (default 1s, a real service's; CI uses 300ms)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(mkdir -p "${1:-$ROOT/reports/manual-session}" && cd "${1:-$ROOT/reports/manual-session}" && pwd)
WORK=$(mktemp -d)
SESSION="pcc-manual-$$"
STOP_AFTER=${STOP_AFTER:-6}   # Ctrl+C during this step of the first run
SIM_PID=
# Its own tmux server (socket), so it neither touches the user's sessions nor meets another run's.
tmux() { command tmux -L "$SESSION" "$@"; }

cleanup() {
  tmux kill-server 2>/dev/null || true
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

say() { printf '[check-manual-session] %s\n' "$*"; }
fail() { say "FAILED: $*"; exit 1; }

# --- the simulator, in manual mode, in its own process -------------------------------------------
node "$ROOT/bin/payconnect-conformance.js" sim --terminal manual --step-delay 100 --deadline 2500 --otps 0 </dev/null >"$WORK/sim.log" 2>&1 &
SIM_PID=$!
for _ in $(seq 100); do grep -q 'listening on' "$WORK/sim.log" && break; sleep 0.1; done
URL=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$WORK/sim.log" | head -1)
[ -n "$URL" ] || fail "the simulator did not start: $(cat "$WORK/sim.log")"
say "simulator (manual terminal) at $URL"

json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);console.log(eval(process.argv[1])??"")})' "$1"; }
waiting_terminal() { curl -fsS "$URL/_sim/terminals" | json 'v.terminals.find(t=>t.waiting)?.terminal_id'; }
act() { # act ACTION: on the terminal whose transaction waits (waits up to 20 s for one)
  local tid=
  for _ in $(seq 200); do tid=$(waiting_terminal); [ -n "$tid" ] && break; sleep 0.1; done
  [ -n "$tid" ] || fail "no transaction waited for '$1'"
  curl -fsS -X POST -H 'content-type: application/json' -d "{\"action\":\"$1\"}" "$URL/_sim/terminals/$tid/actions" >/dev/null
  say "  virtual terminal $tid: $1"
}

screen() { tmux capture-pane -p -J -S -5000 -t "$SESSION"; }
steps_seen() { screen | grep -c '^\[step ' || true; }

wait_screen() { for _ in $(seq 200); do screen | grep -q -- "$1" && return 0; sleep 0.1; done; fail "the screen never showed: $1"; }
wait_screen_count() { for _ in $(seq 200); do [ "$(screen | grep -c -- "$1" || true)" -ge "$2" ] && return 0; sleep 0.1; done; fail "the screen never showed $2 of: $1"; }
REDONE=

# What a person does for an instruction of the console (session-plan.ts operatorInstruction).
do_step() {
  local instruction=$1
  case "$instruction" in
    *"do not present it: the harness cancels"*) say "  leave the card prompt open (the harness cancels)";;
    *"Add a tip"*) act add-tip; act present-card;;
    *"Present the decline test card"*)
      if [ -z "$REDONE" ]; then
        # Once, the wrong card: the console asks, the operator redoes the step (kept in the evidence).
        REDONE=yes; act present-card
        wait_screen 'r redo, Enter keep this result'
        local before; before=$(steps_seen)
        tmux send-keys -t "$SESSION" r; say "  wrong card: redo"
        wait_screen_count '^\[step ' "$((before + 1))"; REDO_HEADERS=1
        say "  $(screen | grep '^\[step ' | tail -1)"
      fi
      act decline;;
    *"pull it out before the terminal finishes"*) act remove-card;;
    *"Do nothing until the terminal gives up"*) act timeout;;
    *"approve test card"*) act present-card;;
    *) fail "an instruction this script does not know: $instruction";;
  esac
}

# Drives the console until the command ends (EXIT= on screen); stops the session at step $1 (0: never).
# A run that never ends fails after DRIVE_SECONDS (default 600), showing the screen it stalled on.
drive() {
  local stop_at=$1 done_steps=$2 deadline=$((SECONDS + ${DRIVE_SECONDS:-600}))
  while [ $SECONDS -lt $deadline ]; do
    local s; s=$(screen)
    if grep -q '^EXIT=' <<<"$s" && [ "$(grep -c '^EXIT=' <<<"$s")" -gt "$RUNS_ENDED" ]; then return 0; fi
    if [ "$(grep -c 'Press Enter to start' <<<"$s")" -gt "$PLANS_ANSWERED" ]; then
      PLANS_ANSWERED=$((PLANS_ANSWERED + 1)); sleep 0.3; tmux send-keys -t "$SESSION" Enter; say "plan confirmed"
    fi
    local n; n=$(grep -c '^\[step ' <<<"$s" || true)
    # The newest step's own instruction: the lines after its header (an instruction above the header
    # is the previous step's; without one yet, the screen is read again).
    local instruction; instruction=$(awk '/^\[step /{i=""} /^  > /{i=substr($0, 5)} END{print i}' <<<"$s")
    if [ "$n" -gt "$done_steps" ] && [ -n "$instruction" ]; then
      done_steps=$n
      local header; header=$(grep '^\[step ' <<<"$s" | tail -1)
      say "$header: $instruction"
      if [ "$stop_at" -gt 0 ] && [ "$((n - STEPS_BEFORE))" -ge "$stop_at" ]; then
        sleep 1; tmux send-keys -t "$SESSION" C-c; say "  Ctrl+C: the operator stops the session"; stop_at=0
      else
        REDO_HEADERS=0
        do_step "$instruction"
        # Only the headers this step made (a redo's); a next step already on screen is still to do
        # (counting the screen again here skipped a step that began while this one's action was sent).
        done_steps=$((n + REDO_HEADERS))
      fi
    fi
    sleep 0.3
  done
  say "the screen when it stalled:"; screen | tail -40
  fail "the session did not end within ${DRIVE_SECONDS:-600} s"
}

# The pairing made by the first run keeps its webhook_url: a session to be resumed needs a receiver
# address that stays the same (a fixed port here; --webhook-public-url for a real service). Picked at
# random below the kernel's ephemeral range and checked free: a port from bind(0) is one the kernel
# hands out again, to any process's port-0 listener or outgoing connection (the simulator run the
# self-test makes beside the session), between the two runs or before the first binds it.
PORT=$(node -e '
const net = require("node:net");
let lo = 32768;
try { lo = Number(require("node:fs").readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]); } catch {}
const from = 20000, to = lo - 1;
const pick = (left) => {
  const s = net.createServer();
  s.once("error", () => (left > 0 ? pick(left - 1) : process.exit(1)));
  // No room below the ephemeral range: any free port, as before.
  s.listen(to > from ? from + Math.floor(Math.random() * (to - from)) : 0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });
};
pick(50);
') || fail "no free port for the webhook receiver"
CMD=(node "$ROOT/bin/payconnect-conformance.js" run --target "$URL" --integrator-id sim-integrator --profile sandbox
  --terminal manual --vault "$WORK/vault.json" --reports "$OUT/reports" --no-html --webhook-listen "127.0.0.1:$PORT" --settle "${SETTLE:-1s}"
  --label firmware=4.2.1 --label terminal=SN-0042 --label tester=check-manual-session)
rm -rf "$OUT/reports"
# The whole session stays in the pane's history for the transcript (set before the window exists).
tmux -f /dev/null start-server \; set-option -g history-limit 20000 \; new-session -d -s "$SESSION" -x 110 -y 50
RUNS_ENDED=0 PLANS_ANSWERED=0 STEPS_BEFORE=0

say "first run: stopped with Ctrl+C during step $STOP_AFTER"
tmux send-keys -t "$SESSION" "$(printf '%q ' "${CMD[@]}"); echo EXIT=\$?" Enter
drive "$STOP_AFTER" 0
RUNS_ENDED=1
FIRST=$(screen)
grep -q 'session stopped by the operator' <<<"$FIRST" || fail "the first run did not say the session stopped"
grep -q '^EXIT=2' <<<"$FIRST" || fail "a stopped session must not pass (exit 2 expected: not finished, no finding)"
PASSED_FIRST=$(json 'v.passed.length' <"$OUT/reports/session.json")
say "first run stopped: $PASSED_FIRST tests passed and kept"

say "second run: --resume"
STEPS_BEFORE=$(steps_seen)
tmux send-keys -t "$SESSION" "$(printf '%q ' "${CMD[@]}") --resume; echo EXIT=\$?" Enter
drive 0 "$STEPS_BEFORE"
screen >"$OUT/transcript.txt"
say "screen transcript: $OUT/transcript.txt"

SECOND=$(sed -n "/--resume; echo EXIT/,\$p" "$OUT/transcript.txt")
grep -q "^Already passed and not repeated: $PASSED_FIRST tests" <<<"$SECOND" || fail "the resumed plan does not carry the $PASSED_FIRST passed tests"
grep -q '^EXIT=0' <<<"$SECOND" || fail "the resumed session did not pass"
grep -q '^certification: CERTIFIED' <<<"$SECOND" || fail "the resumed session is not certified"

R="$OUT/reports"
node - "$R" "$PASSED_FIRST" <<'EOF'
const fs = require('node:fs'), path = require('node:path');
const [dir, passedFirst] = [process.argv[2], Number(process.argv[3])];
const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
const session = JSON.parse(fs.readFileSync(path.join(dir, 'session.json'), 'utf8'));
const want = { firmware: '4.2.1', terminal: 'SN-0042', tester: 'check-manual-session' };
const problems = [];
if (JSON.stringify(summary.labels) !== JSON.stringify(want)) problems.push(`summary labels ${JSON.stringify(summary.labels)}`);
const junit = fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8');
for (const [k, v] of Object.entries(want)) if (!junit.includes(`name="label.${k}" value="${v}"`)) problems.push(`junit has no label.${k}`);
const env = fs.readFileSync(path.join(dir, 'allure-results', 'environment.properties'), 'utf8');
for (const [k, v] of Object.entries(want)) if (!env.split('\n').includes(`${k}=${v}`)) problems.push(`allure environment has no ${k}`);
const md = fs.readFileSync(path.join(dir, 'certification.md'), 'utf8');
for (const [k, v] of Object.entries(want)) if (!md.includes(`| Label ${k} | ${v} |`)) problems.push(`certification has no label ${k}`);
if (session.runs !== 2) problems.push(`session runs ${session.runs}`);
// Each manual step's test ran once: the records of the first run's passes are carried, not re-made.
const summaryTests = summary.counts.tests;
const operatorTests = session.passed.filter((t) => (t.operator ?? []).length > 0);
if (operatorTests.length === 0) problems.push('no operator evidence in the session');
const redone = operatorTests.filter((t) => t.operator.some((o) => o.verdict === 'redo'));
if (redone.length !== 1 || redone[0].operator.at(-1).verdict !== 'done' || redone[0].operator.at(-1).attempt !== 2) problems.push(`the redo is not in the evidence: ${JSON.stringify(redone.map((t) => t.operator))}`);
for (const t of operatorTests) if (!t.operator.every((o) => ['done', 'kept'].includes(o.verdict) || o.verdict === 'redo')) problems.push(`${t.name}: ${JSON.stringify(t.operator)}`);
if (passedFirst < 1) problems.push('the first run passed nothing before it was stopped');
if (problems.length > 0) { console.error(problems.join('\n')); process.exit(1); }
console.log(`[check-manual-session] ${summaryTests} tests, ${session.passed.length} passed over 2 runs, ${operatorTests.length} with the operator's record; labels in summary, junit, Allure environment and certification`);
EOF
say "OK: certified after an interruption and --resume"
