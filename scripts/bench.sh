#!/usr/bin/env bash
# Times `fairscore leaderboard` on ../shared/data/hipe2022 from a cold start (fresh process,
# empty output directory; page cache dropped too when run as root with --drop-caches) and
# prints wall time and peak memory (GNU time, /usr/bin/time -v).
#
#   scripts/bench.sh [--replay] [--threads N] [--drop-caches]
#
# --replay takes the official per-run outputs instead of scoring (ranking + reports only).
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/hipe2022
[ -d "$data" ] || { echo "bench: $data absent" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time absent (apt-get install -y time)" >&2; exit 2; }
replay=() threads=() drop=0
while [ $# -gt 0 ]; do
  case "$1" in
    --replay) replay=(--replay "$data/official") ;;
    --threads) threads=(--threads "$2"); shift ;;
    --drop-caches) drop=1 ;;
    *) echo "bench: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
cargo build --release --quiet
out=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$out" "$log"' EXIT

run() {
  rm -rf "$out"/*
  if [ "$drop" = 1 ]; then
    sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || echo "bench: cannot drop caches (not root?)" >&2
  fi
  set +e
  /usr/bin/time -v ./target/release/fairscore leaderboard --quiet \
    --gold-dir "$data/gold" --runs-dir "$data/submissions" --resources "$data/resources" \
    --outdir "$out" "${threads[@]}" "$@" 2>"$log"
  status=$?
  set -e
}

run "${replay[@]}"
grep -E "runs scored" "$log" || true
wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log")
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
if [ ${#replay[@]} -gt 0 ]; then mode="replay (official per-run outputs, no scoring)"; else mode=scoring; fi
echo "mode: $mode"
echo "exit status: $status"
echo "wall time: $wall"
echo "peak memory: $rss KiB"
echo "files: $(find "$out" -type f | wc -l) ($(du -sh "$out" | cut -f1))"
