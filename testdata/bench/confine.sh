#!/usr/bin/env bash
# Side-by-side cost of a confined call: gatekeep's enforced `true` against
# bubblewrap's and a bare Go exec wrapper's, in a 1-file project and in a
# generated 50,000-file project (500 dirs of 100 files), with hyperfine.
#
#   testdata/bench/confine.sh [OUT.md]
#
# With BEFORE=/path/to/an/older/gatekeep in the environment, that build's
# enforced call runs in the same hyperfine runs, for a before/after.
#
# Needs hyperfine and bubblewrap (apt-get install hyperfine bubblewrap);
# builds gatekeep and execwrap static into a temp dir. Projects are made
# under /opt (not a temp dir, which is a sandbox root of its own). Prints
# hyperfine's markdown tables (and writes them to OUT.md when given), then
# `strace -f -c` of one enforced call when strace is installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v hyperfine >/dev/null || { echo "confine.sh: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
bin=$(mktemp -d)
trap 'rm -rf "$bin" "${base:-}"' EXIT
CGO_ENABLED=0 go build -trimpath -o "$bin/gatekeep" .
CGO_ENABLED=0 go build -trimpath -o "$bin/execwrap" ./testdata/bench/execwrap
base=$(mktemp -d /opt/gatekeep-bench.XXXXXX)
small=$base/small big=$base/big
mkdir -p "$small/.git" "$big/.git" "$base/home"
echo x > "$small/README"
for d in $(seq 1 500); do
	mkdir -p "$big/d$d"
	for f in $(seq 1 100); do : > "$big/d$d/f$f"; done
done
export HOME=$base/home XDG_CONFIG_HOME=$base/home/.config XDG_CACHE_HOME=$base/home/.cache
out=${1:-/dev/null}
: > "$out"
for proj in "$small" "$big"; do
	cd "$proj"
	cmds=("$bin/execwrap true" "$bin/gatekeep bash -- true" "$bin/gatekeep bash --enforce -- true")
	if [ -n "${BEFORE:-}" ]; then
		cmds+=("$BEFORE bash --enforce -- true")
	fi
	if command -v bwrap >/dev/null; then
		cmds+=("bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --die-with-parent --bind $proj $proj true")
	fi
	echo "## $(basename "$proj") project ($(find . -type f | wc -l) files)" | tee -a "$out"
	hyperfine -N --warmup 10 --min-runs 50 --export-markdown "$bin/table.md" "${cmds[@]}" >&2
	tee -a "$out" < "$bin/table.md"
done
if command -v strace >/dev/null; then
	cd "$big"
	echo "## strace -f -c of one enforced call (big project)" | tee -a "$out"
	strace -f -c -o "$bin/strace.txt" "$bin/gatekeep" bash --enforce -- true
	grep -E 'nanosleep|futex|getdents64|newfstatat|execve|total' "$bin/strace.txt" | tee -a "$out"
fi
