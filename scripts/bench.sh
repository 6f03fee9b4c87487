#!/usr/bin/env bash
# Prints fairscore's wall time and peak memory beside the floor: `examples/read_floor`, which
# only reads the same files through the input guard and splits them into lines and cells
# (a scoring command cannot be cheaper), and beside the goals of docs/performance.md.
#
#   scripts/bench.sh [--reps N] [--threads N] [--no-build] [--drop-caches]
#
#   (a) one run, newseye-de, `score` nerc_coarse and nerc_fine (a run whose fine columns are all
#       `_`): median wall time and peak RSS of N runs beside read_floor GOLD RUN and the input
#       bytes; goals ≤ 1.5× the floor's time, ≤ 2× the input bytes;
#   (b) `leaderboard` on the HIPE-2022 campaign of ../shared beside read_floor over every
#       input file; goals ≤ 2× the floor's time, ≤ 100 MiB;
#   (c) the same campaign with every run duplicated 3× under other team names (symbolic
#       links in a temporary directory): peak memory must stay that of (b), not grow 4×;
#   (d) scripts/bench_families.sh, when present.
#
# Environment: FAIRSCORE (binary, default target/release/fairscore), READ_FLOOR (default
# target/release/examples/read_floor), CARGO_TARGET_DIR as cargo's.
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/hipe2022
[ -d "$data" ] || { echo "bench: $data absent" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time absent (apt-get install -y time)" >&2; exit 2; }
reps=5 threads=2 build=1 drop=0
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) reps="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --no-build) build=0 ;;
    --drop-caches) drop=1 ;;
    *) echo "bench: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
target=${CARGO_TARGET_DIR:-target}
if [ "$build" = 1 ]; then
  cargo build --release --quiet --bin fairscore --example read_floor
fi
bin=${FAIRSCORE:-$target/release/fairscore}
floor=${READ_FLOOR:-$target/release/examples/read_floor}
for b in "$bin" "$floor"; do [ -x "$b" ] || { echo "bench: $b absent" >&2; exit 2; }; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure CMD…: runs CMD $reps times (outputs to $tmp/out, emptied before each run); sets
# WALL (median, ms) and RSS (median peak resident set, KiB); a failing command stops the bench.
measure() {
  local walls=() rsss=() i t0 t1
  for ((i = 0; i < reps; i++)); do
    rm -rf "$tmp/out"; mkdir -p "$tmp/out"
    if [ "$drop" = 1 ]; then
      sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || echo "bench: cannot drop caches (not root?)" >&2
    fi
    t0=$(date +%s%N)
    set +e
    /usr/bin/time -f "%M" -o "$tmp/time" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    status=$?
    set -e
    # leaderboard exits 1 when some file was not scored; anything else is a failure.
    if [ "$status" -gt 1 ]; then
      echo "bench: exit status $status: $*" >&2; cat "$tmp/stderr" >&2; exit 1
    fi
    t1=$(date +%s%N)
    walls+=($(( (t1 - t0) / 1000000 )))
    rsss+=("$(tail -n 1 "$tmp/time")")
  done
  WALL=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(( (reps + 1) / 2 ))p")
  RSS=$(printf '%s\n' "${rsss[@]}" | sort -n | sed -n "$(( (reps + 1) / 2 ))p")
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
bytes() { cat "$@" | wc -c; }

# One line of the table: WHAT, then the measured and floor figures.
row() { printf '%-34s %9s %9s %7s   %9s %9s %7s   %s\n' "$@"; }
header() {
  row "work" "wall ms" "floor ms" "ratio" "peak MiB" "vs MiB" "ratio" "goal"
}

gold=$data/gold/HIPE-2022-v2.1-newseye-test-de.tsv
run=$data/submissions/team4_bundle4_newseye_de_1.tsv
in_kib=$(( $(bytes "$gold" "$run") / 1024 ))
echo "fairscore: $bin; $reps runs each, medians; $(nproc) cores"
echo
echo "(a) one run: $(basename "$gold") + $(basename "$run"), $(mib "$in_kib") MiB of input"
header
measure "$floor" "$gold" "$run"
fw=$WALL frss=$RSS
row "read_floor GOLD RUN" "$fw" "-" "-" "$(mib "$frss")" "-" "-" "the floor"
for task in nerc_coarse nerc_fine; do
  measure "$bin" score --ref "$gold" --pred "$run" --task "$task" --hipe_edition hipe-2022 \
    --outdir "$tmp/out"
  row "score $task" "$WALL" "$fw" "$(ratio "$WALL" "$fw")" "$(mib "$RSS")" "$(mib "$in_kib")" \
    "$(ratio "$RSS" "$in_kib")" "time ≤1.5× floor, memory ≤2× input"
done

# Every file a campaign reads once: golds, runs, resources.
campaign_inputs() {
  find "$1" "$data/gold" "$data/resources" -maxdepth 1 -name '*.tsv' -o -maxdepth 1 -name '*.txt' | sort
}
leaderboard() {
  measure "$bin" leaderboard --quiet --threads "$threads" --gold-dir "$data/gold" \
    --runs-dir "$1" --resources "$data/resources" --outdir "$tmp/out"
}

echo
runs_n=$(find "$data/submissions" -maxdepth 1 -name '*.tsv' | wc -l)
mapfile -t inputs < <(campaign_inputs "$data/submissions")
echo "(b) campaign: $runs_n runs, ${#inputs[@]} input files, $(mib $(( $(bytes "${inputs[@]}") / 1024 ))) MiB; $threads threads"
header
measure "$floor" "${inputs[@]}"
fw=$WALL
row "read_floor every input" "$fw" "-" "-" "$(mib "$RSS")" "-" "-" "the floor"
leaderboard "$data/submissions"
base_rss=$RSS
row "leaderboard" "$WALL" "$fw" "$(ratio "$WALL" "$fw")" "$(mib "$RSS")" "100.0" \
  "$(ratio "$RSS" 102400)" "time ≤2× floor, peak ≤100 MiB"

echo
dup=$tmp/runs-x4
mkdir -p "$dup"
for f in "$data"/submissions/*.tsv; do
  name=$(basename "$f")
  ln -s "$(realpath "$f")" "$dup/$name"
  for k in 1 2 3; do ln -s "$(realpath "$f")" "$dup/dup${k}${name}"; done
done
mapfile -t inputs < <(campaign_inputs "$dup")
echo "(c) campaign with every run duplicated 3× under other team names: $(( runs_n * 4 )) runs, $(mib $(( $(bytes "${inputs[@]}") / 1024 ))) MiB"
header
measure "$floor" "${inputs[@]}"
fw=$WALL
row "read_floor every input" "$fw" "-" "-" "$(mib "$RSS")" "-" "-" "the floor"
leaderboard "$dup"
row "leaderboard" "$WALL" "$fw" "$(ratio "$WALL" "$fw")" "$(mib "$RSS")" "$(mib "$base_rss")" \
  "$(ratio "$RSS" "$base_rss")" "time ≤2× floor, peak ≈ (b)'s (bounded by the largest file)"

if [ -x scripts/bench_families.sh ] || [ -f scripts/bench_families.sh ]; then
  echo
  echo "(d) scripts/bench_families.sh"
  bash scripts/bench_families.sh
fi
