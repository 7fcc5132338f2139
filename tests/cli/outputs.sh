#!/usr/bin/env bash
# The output files of every command (apps/quasidyn/output_paths.h, docs/trajectory-format.md
# "Output files"): an output may not be an input of the run (the scene, a URDF it reads, the
# trajectory of `view`) nor another output of the run, and may not be empty; a refused run
# exits 2, names the options and the path, and changes no file. A write that fails midway
# (here: the file-size limit of `ulimit -f`) leaves the previous file as it was and no
# temporary file behind.
set -uo pipefail
qd=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

cp -r examples/planar_gripper "$tmp/gripper"
cp -r examples/arm_cubes "$tmp/arm"
scene=$tmp/gripper/scene.yaml
urdf=$tmp/arm/models/arm7.urdf

# $1 = code, $2.. = texts stderr must contain, then "--", then the command's arguments.
expect_refused() {
  local code=$1; shift
  local texts=()
  while [ "$1" != "--" ]; do texts+=("$1"); shift; done
  shift
  "$qd" "$@" > "$tmp/out.txt" 2> "$tmp/err.txt"
  local got=$?
  [ "$got" -eq "$code" ] || fail "'$*' exited $got, not $code: $(cat "$tmp/err.txt")"
  for text in "${texts[@]}"; do
    grep -qF -- "$text" "$tmp/err.txt" || fail "error for '$*' does not name '$text': $(cat "$tmp/err.txt")"
  done
}
# Snapshot of the inputs, to check that a refused run changed none of them.
snapshot() { (cd "$tmp" && find gripper arm -type f -exec sha256sum {} + | sort) ; }
before=$(snapshot)
unchanged() { [ "$(snapshot)" = "$before" ] || fail "$1: an input file changed"; }

# simulate: the scene as output, however spelled.
expect_refused 2 "--out" "SCENE" "$scene" -- simulate "$scene" --steps 1 --quiet --out "$scene"
unchanged "simulate --out SCENE"
expect_refused 2 "--html" "SCENE" -- simulate "$scene" --steps 1 --quiet --html "$tmp/gripper/./scene.yaml"
unchanged "simulate --html ./SCENE"
ln -s gripper/scene.yaml "$tmp/link.yaml"
expect_refused 2 "--out" "SCENE" "$tmp/link.yaml" -- simulate "$scene" --steps 1 --quiet --out "$tmp/link.yaml"
unchanged "simulate --out a link to SCENE"
# ... and a URDF the scene reads.
expect_refused 2 "--out" "the URDF of robot 'arm'" "$urdf" -- \
  simulate "$tmp/arm/scene.yaml" --steps 1 --quiet --out "$urdf"
unchanged "simulate --out URDF"

# Two outputs of one run, one file.
expect_refused 2 "--out" "--html" "$tmp/x.json" -- \
  simulate "$scene" --steps 1 --quiet --out "$tmp/x.json" --html "$tmp/x.json"
[ -e "$tmp/x.json" ] && fail "--out x --html x wrote x"
"$qd" simulate "$scene" --steps 1 --quiet --out "$tmp/y.json" > /dev/null || fail "simulate --out y.json"
cp "$tmp/y.json" "$tmp/y.saved"
expect_refused 2 "--out" "--html" -- \
  simulate "$scene" --steps 1 --quiet --out "$tmp/y.json" --html "$tmp/./y.json"
cmp -s "$tmp/y.json" "$tmp/y.saved" || fail "--out y --html ./y changed y"

# Empty paths, a directory, a folder that is a file: refused before the run.
expect_refused 2 "--out" "empty" -- simulate "$scene" --steps 1 --quiet --out ""
expect_refused 2 "--html" "empty" -- simulate "$scene" --steps 1 --quiet --html ""
expect_refused 2 "--out" "directory" -- simulate "$scene" --steps 1 --quiet --out "$tmp/gripper"
echo "a file" > "$tmp/plain"
expect_refused 2 "--out" "is a file, not a folder" -- simulate "$scene" --steps 1 --quiet --out "$tmp/plain/t.json"
unchanged "simulate with bad outputs"
# A missing folder is created.
"$qd" simulate "$scene" --steps 1 --quiet --out "$tmp/new/dir/t.json" --html "$tmp/new/page/p.html" \
  > /dev/null || fail "simulate into new folders"
[ -s "$tmp/new/dir/t.json" ] && [ -s "$tmp/new/page/p.html" ] || fail "new folders not created"

# view: its trajectory, the scene and the scene's URDFs are inputs.
expect_refused 2 "--out" "TRAJECTORY" -- view "$tmp/y.json" -o "$tmp/y.json"
cmp -s "$tmp/y.json" "$tmp/y.saved" || fail "view -o TRAJECTORY changed it"
expect_refused 2 "--out" "--scene" -- view "$tmp/y.json" --scene "$scene" -o "$scene"
expect_refused 2 "--out" "the trajectory's scene file" -- view "$tmp/y.json" -o "$scene"
expect_refused 2 "--out" "empty" -- view "$tmp/y.json" -o ""
unchanged "view with bad outputs"

# demo: an empty output folder.
expect_refused 2 "--out" "empty" -- demo --quiet --out ""

# Atomic writes: past the file-size limit the write fails (exit 2, the path and the reason
# on stderr); the previous file stays whole and no temporary file is left. SIGXFSZ is ignored
# so that write(2) reports EFBIG instead of the signal ending the program.
(
  trap '' XFSZ
  ulimit -f 4  # blocks of 1024 bytes in bash
  "$qd" simulate "$scene" --steps 200 --quiet --out "$tmp/y.json" > /dev/null 2> "$tmp/err.txt"
  echo $? > "$tmp/code.txt"
)
[ "$(cat "$tmp/code.txt")" -eq 2 ] || fail "a failed write exits $(cat "$tmp/code.txt"), not 2"
grep -qF "$tmp/y.json" "$tmp/err.txt" || fail "a failed write does not name the path: $(cat "$tmp/err.txt")"
grep -qi "too large" "$tmp/err.txt" || fail "a failed write does not give the reason: $(cat "$tmp/err.txt")"
cmp -s "$tmp/y.json" "$tmp/y.saved" || fail "a failed write destroyed the previous trajectory"
"$qd" simulate "$scene" --steps 1 --quiet --html "$tmp/page.html" > /dev/null || fail "simulate --html"
cp "$tmp/page.html" "$tmp/page.saved"
(
  trap '' XFSZ
  ulimit -f 4
  "$qd" simulate "$scene" --steps 1 --quiet --html "$tmp/page.html" > /dev/null 2> "$tmp/err.txt"
  echo $? > "$tmp/code.txt"
)
[ "$(cat "$tmp/code.txt")" -eq 2 ] || fail "a failed page write exits $(cat "$tmp/code.txt"), not 2"
cmp -s "$tmp/page.html" "$tmp/page.saved" || fail "a failed write destroyed the previous page"
leftovers=$(find "$tmp" -maxdepth 1 -name '.*.tmp-*')
[ -z "$leftovers" ] || fail "temporary files left behind: $leftovers"
# A mistyped command is named with the closest one (CLI11 alone said "A subcommand is required").
expect_refused 2 "unknown command 'simulat'" "did you mean 'simulate'" -- simulat "$scene" --steps 1
expect_refused 2 "unknown command 'vew'" "did you mean 'view'" -- --log-level error vew "$scene"
echo "cli outputs: all checks passed"
