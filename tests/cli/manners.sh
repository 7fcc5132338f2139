#!/usr/bin/env bash
# One manner for every subcommand (docs/cli.md, issue 36): each has --help (exit 0) and --quiet;
# progress is drawn only on a terminal (a redirected stderr gets no '\r' frames); an output's
# format comes from its extension (real CSV for .csv, a clear refusal of an unknown one, naming
# the option and the extensions it writes); a mistyped option or scene key gets "did you mean".
set -uo pipefail
qd=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scene=examples/planar_gripper/scene.yaml

# Every subcommand `quasidyn --help` lists has --help and --quiet.
commands=$("$qd" --help | awk '/^Subcommands:/ {on = 1; next} on && NF {print $1}')
[ "$(echo "$commands" | wc -w)" -ge 11 ] || fail "--help lists too few subcommands: $commands"
for command in $commands; do
  "$qd" "$command" --help > "$tmp/help.txt" 2>&1 || fail "$command --help exited non-zero"
  grep -q -- "--quiet" "$tmp/help.txt" || fail "$command has no --quiet: $(cat "$tmp/help.txt")"
done
"$qd" linearize "$scene" --quiet > /dev/null 2> "$tmp/err.txt" || fail "linearize --quiet"
"$qd" info "$scene" --quiet > /dev/null || fail "info --quiet"

# Progress: none in a redirected stderr, a redrawn line on a terminal.
plan=(plan examples/planar_pushing_top_down/scene.yaml --seed 9)
"$qd" "${plan[@]}" --out "$tmp/plan.json" > /dev/null 2> "$tmp/err.txt" || fail "plan: $(cat "$tmp/err.txt")"
grep -q $'\r' "$tmp/err.txt" && fail "plan wrote '\\r' into a redirected stderr: $(cat -A "$tmp/err.txt")"
"$qd" simulate "$scene" --out "$tmp/t.json" > /dev/null 2> "$tmp/err.txt" || fail "simulate"
grep -q $'\r' "$tmp/err.txt" && fail "simulate wrote '\\r' into a redirected stderr"
if command -v script > /dev/null; then
  # stdout to a file, stderr the pseudo-terminal script records.
  script -qec "'$qd' ${plan[*]} --out '$tmp/tty.json' > /dev/null" /dev/null > "$tmp/tty.txt" \
    || fail "plan on a terminal: $(cat "$tmp/tty.txt")"
  grep -q "nodes, best goal distance" "$tmp/tty.txt" || fail "no progress on a terminal: $(cat -A "$tmp/tty.txt")"
  script -qec "'$qd' ${plan[*]} --quiet --out '$tmp/tty.json' > /dev/null" /dev/null > "$tmp/tty.txt"
  grep -q "nodes" "$tmp/tty.txt" && fail "plan --quiet drew progress on a terminal"
fi

# Formats by extension: .csv is CSV, one row per step after the start's.
"$qd" simulate "$scene" --steps 5 --quiet --out "$tmp/run.csv" > /dev/null || fail "simulate --out run.csv"
python3 - "$tmp/run.csv" <<'PY' || fail "run.csv is not the documented CSV: $(head -3 "$tmp/run.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 6, len(rows)
assert [r["k"] for r in rows] == ["0", "1", "2", "3", "4", "5"]
assert rows[0]["status"] == "initial" and rows[1]["status"] in ("solved", "solved_inaccurate")
q = [c for c in rows[0] if c.startswith("q:")]
u = [c for c in rows[0] if c.startswith("u:")]
assert q and u, list(rows[0])
assert all(rows[0][c] == "" for c in u) and all(rows[5][c] != "" for c in u)
assert abs(float(rows[5]["t"]) - 5 * float(rows[1]["t"])) < 1e-12
PY
"$qd" simulate "$scene" --steps 5 --quiet --out "$tmp/run.npz" > /dev/null || fail "simulate --out run.npz"
# An unknown extension is refused before the run, naming the option and what it writes.
expect_refused() {  # $1 = text stderr must contain, then the arguments
  local text=$1; shift
  "$qd" "$@" > /dev/null 2> "$tmp/err.txt"
  local code=$?
  [ $code -eq 2 ] || fail "'$*' exited $code, not 2: $(cat "$tmp/err.txt")"
  grep -qF -- "$text" "$tmp/err.txt" || fail "'$*': message lacks '$text': $(cat "$tmp/err.txt")"
}
expect_refused "--out '$tmp/run.txt': unknown extension '.txt'; --out writes .json, .npz or .csv" \
  simulate "$scene" --steps 1 --quiet --out "$tmp/run.txt"
[ -e "$tmp/run.txt" ] && fail "simulate --out run.txt wrote a file"
expect_refused "no file extension" simulate "$scene" --steps 1 --quiet --out "$tmp/run"
expect_refused "--html writes .html or .htm" simulate "$scene" --steps 1 --quiet --html "$tmp/page.json"
expect_refused "--out writes .html or .htm" view "$tmp/t.json" -o "$tmp/page.json"
expect_refused "--out writes .json" "${plan[@]}" --quiet --out "$tmp/plan.csv"
expect_refused "--csv writes .csv" compare "$scene" --steps 1 --quiet --csv "$tmp/table.json"
# A special file takes any name: the run's default format goes to /dev/null.
"$qd" simulate "$scene" --steps 1 --quiet --out /dev/null > /dev/null || fail "simulate --out /dev/null"

# Did you mean: a mistyped option, before or after the subcommand, and a mistyped scene key.
expect_refused "unknown option '--stesp' for 'simulate' (did you mean '--steps'?)" \
  simulate "$scene" --stesp 3
expect_refused "unknown option '--quite' for 'simulate' (did you mean '--quiet'?)" \
  simulate "$scene" --quite
expect_refused "unknown option '--log-levle' (did you mean '--log-level'?)" \
  --log-levle=debug info "$scene"
# A settings flag's value that is not a boolean is named (CLI11 alone said "stoll").
expect_refused "--ramp: 'maybe' is not true or false" \
  track "$tmp/t.json" --plant-scene "$scene" --ramp=maybe
sed 's/^time_step:/tiem_step:/' "$scene" > "$tmp/typo.yaml"
grep -q "^tiem_step:" "$tmp/typo.yaml" || fail "the fixture has no top-level time_step"
expect_refused "unknown key (did you mean 'time_step'?)" info "$tmp/typo.yaml"
echo "PASS"
