#!/usr/bin/env bash
# Whole-process wall time of `segmentation`, `tagging` and `muc` on the largest files of
# ../shared/data/ud and ../shared/data/hipe2022, beside the floor of merely reading and splitting
# the same two files (target/release/examples/read_floor GOLD RUN), and their ratio; the goal of
# issue 10 is a ratio of at most 3. Each figure is the median of N runs (default 11) of a fresh
# process, timed with `date +%s%N`; no dependency beyond bash, coreutils and sort.
#
#   scripts/bench_families.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-11}
case "$n" in ''|*[!0-9]*|0) echo "bench_families: N must be a positive whole number" >&2; exit 2 ;; esac
ud=../shared/data/ud
hipe=../shared/data/hipe2022
[ -d "$ud" ] && [ -d "$hipe" ] || { echo "bench_families: $ud or $hipe absent" >&2; exit 2; }
cargo build --release --examples --bins --quiet
target=${CARGO_TARGET_DIR:-target}
bin=$target/release/fairscore
floor=$target/release/examples/read_floor
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Wall time of one run of a command, in nanoseconds.
once_ns() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null 2>&1 || { echo "bench_families: failed: $*" >&2; exit 1; }
  t1=$(date +%s%N)
  echo $((t1 - t0))
}

# The median (milliseconds, three decimals) of the numbers on stdin, one a line.
median_ms() {
  sort -n | awk '{ v[NR] = $1 }
    END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f", m / 1e6 }'
}

row() { # name gold run command...
  local name=$1 gold=$2 run=$3 i base cmd
  shift 3
  local floor_t=() cmd_t=()
  # Floor and command alternate, so that a change of load on the machine hits both alike.
  for ((i = 0; i < n; i++)); do
    floor_t+=("$(once_ns "$floor" "$gold" "$run")")
    cmd_t+=("$(once_ns "$@")")
  done
  base=$(printf '%s\n' "${floor_t[@]}" | median_ms)
  cmd=$(printf '%s\n' "${cmd_t[@]}" | median_ms)
  awk -v name="$name" -v b="$base" -v c="$cmd" 'BEGIN {
    r = (b > 0) ? c / b : 0
    printf "%-50s %9.1f %9.1f %7.2f  %s\n", name, c, b, r, (r <= 3 ? "ok" : "over 3x") }'
}

echo "median of $n runs, whole process, milliseconds"
printf '%-50s %9s %9s %7s\n' "command (gold / run)" "command" "floor" "ratio"
zg=$ud/segmentation/zh_gsd-ud-dev.conllu
zr=$ud/segmentation/jieba-dev.conllu
row "segmentation zh_gsd / jieba (conllu)" "$zg" "$zr" \
  "$bin" segmentation --format conllu --gold "$zg" --pred "$zr" --json "$out/seg.json"
pg=$ud/tagging/pl_pdb-ud-dev.conllu
pr=$ud/tagging/morfeusz-all-dev.conllu
row "segmentation pl_pdb / morfeusz-all (conllu)" "$pg" "$pr" \
  "$bin" segmentation --format conllu --gold "$pg" --pred "$pr" --json "$out/seg.json"
row "tagging pl_pdb / morfeusz-all" "$pg" "$pr" \
  "$bin" tagging --gold "$pg" --pred "$pr" --json "$out/tag.json"
row "tagging pl_pdb / morfeusz-all (nkjp)" "$pg" "$pr" \
  "$bin" tagging --tagset nkjp --gold "$pg" --pred "$pr" --json "$out/tag.json"
hg=$hipe/gold/HIPE-2022-v2.1-newseye-test-de.tsv
hr=$hipe/submissions/neurbsl_bundle3_newseye_de_1.tsv
row "muc newseye-de / neurbsl_bundle3_1" "$hg" "$hr" \
  "$bin" muc -e hipe-2022 --ref "$hg" --pred "$hr" --json "$out/muc.json"
row "muc newseye-de / neurbsl_bundle3_1, --judgements" "$hg" "$hr" \
  "$bin" muc -e hipe-2022 --ref "$hg" --pred "$hr" --json "$out/muc.json" --judgements "$out/muc.tsv"
