#!/usr/bin/env bash
# Prints fairscore's wall time and peak memory beside the floor: `examples/read_floor`, which
# only reads the same files through the input guard and splits them into lines and cells
# (a scoring command cannot be cheaper), and beside the goals of docs/performance.md.
#
#   scripts/bench.sh [--reps N] [--threads N] [--no-build] [--drop-caches] [--only a,b,c,d,e,f,g,h,i]
#                    [--one GOLD RUN] [--edition E] [--tagset FILE]
#                    [--gold-dir DIR --runs-dir DIR --resources DIR] [--preset P | --campaign F]
#
#   (a) one run (default: newseye-de, team4_bundle4_newseye_de_1, a run whose fine columns are
#       all `_`; --one GOLD RUN for another pair, --edition for its HIPE edition): `score`
#       nerc_coarse and nerc_fine, median wall time and peak RSS of N runs beside read_floor
#       GOLD RUN and the input bytes; goals ≤ 1.5× the floor's time, ≤ 2× the input bytes;
#   (b) `leaderboard` on a campaign (default: the HIPE-2022 campaign of ../shared; --gold-dir,
#       --runs-dir, --resources and --preset or --campaign as the leaderboard takes them) beside
#       read_floor over exactly the files the leaderboard opens (found once with strace),
#       writing files of the sizes the leaderboard writes (--write-like: the read+write
#       floor of issue 33); goals ≤ 1.5× the floor's time, ≤ 100 MiB;
#   (c) the same campaign with every run duplicated 3× under other team names (symbolic
#       links in a temporary directory): peak memory must stay that of (b), not grow 4×;
#   (d) scripts/bench_families.sh, when present;
#   (e) `fair` at scale: the synthetic pair of tests/common/fair_synth.rs (built from
#       ../shared/data/faireval/ner, written to the temporary directory) as one unit and as
#       sentence units; goal one unit ≤ 3× the sentence units; growth of the one unit from 1/4
#       to 1/2 to all of the spans, with the exponent log(t2/t1)/log(n2/n1);
#   (f) only when OFFICIAL_SCORER names the official HIPE scorer's clef_evaluation.py (run with
#       OFFICIAL_PYTHON, default python3): the official scorer and `fairscore score` on the pair
#       of (a) for nerc_coarse, nerc_fine and nel (three processes each, with --tagset), and
#       fairscore's three tasks in one process (`score --task nerc_coarse,nerc_fine,nel`);
#       goal fairscore ≥ 150× faster;
#   (g) `agree` on a generated brat project (tests/common/agree_synth.rs: 4 annotators × 20
#       documents × 50,000 tokens, written by examples/agree_floor) beside its floor,
#       `agree_floor read`: the same project read through the brat reader and nothing else;
#       goal ≤ 2× the floor's time, memory linear in the input;
#   (h) `inspect` on the pair of (a) beside `evaluate --family fair` of the same pair (the
#       scoring the page lays out), and on both files repeated 4× (documents renamed): the page's
#       bytes, and the growth exponent log(t4/t1)/log 4 (goal: linear, about 1; page under a few
#       MB for the 100k-token gold);
#   (i) generative NER alignment (issue 47.2): `evaluate --family mentions --unit document
#       --align fuzzy` on the gold of (a) beside the same with `--align exact` (the floor), for
#       three runs made from that gold (python3): one of its names said 5,000 times in one
#       document (90 KB), 250 KB of invented strings, one 20 MB string; goals fuzzy ≤ 3× exact
#       in time, peak memory ≤ 4× the input bytes.
# Parts that cannot apply to the given files (not HIPE-shaped, absent) say so and are skipped.
#
# Environment: FAIRSCORE (binary, default target/release/fairscore), READ_FLOOR (default
# target/release/examples/read_floor), FAIR_INDEX_TEST (the tests/it/families/fair_index.rs binary that
# writes part (e)'s inputs; default: built by cargo), OFFICIAL_SCORER, OFFICIAL_PYTHON,
# CARGO_TARGET_DIR as cargo's.
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/hipe2022
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time absent (apt-get install -y time)" >&2; exit 2; }
reps=5 threads=2 build=1 drop=0 only="" edition="" preset="" campaign="" tagset=""
one_gold=$data/gold/HIPE-2022-v2.1-newseye-test-de.tsv
one_run=$data/submissions/team4_bundle4_newseye_de_1.tsv
gold_dir=$data/gold runs_dir=$data/submissions resources=$data/resources
need() { [ "$2" -ge 2 ] || { echo "bench: $1 needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) need "$1" $#; reps="$2"; shift ;;
    --threads) need "$1" $#; threads="$2"; shift ;;
    --no-build) build=0 ;;
    --drop-caches) drop=1 ;;
    --only) need "$1" $#; only="$2"; shift ;;
    --one) [ $# -ge 3 ] || { echo "bench: --one needs GOLD RUN" >&2; exit 2; }
      one_gold="$2" one_run="$3"; shift 2 ;;
    --edition) need "$1" $#; edition="$2"; shift ;;
    --tagset) need "$1" $#; tagset="$2"; shift ;;
    --gold-dir) need "$1" $#; gold_dir="$2"; shift ;;
    --runs-dir) need "$1" $#; runs_dir="$2"; shift ;;
    --resources) need "$1" $#; resources="$2"; shift ;;
    --preset) need "$1" $#; preset="$2"; shift ;;
    --campaign) need "$1" $#; campaign="$2"; shift ;;
    *) echo "bench: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
case "$reps" in ''|*[!0-9]*|0) echo "bench: --reps must be a positive whole number" >&2; exit 2 ;; esac
[ -z "$preset" ] || [ -z "$campaign" ] || { echo "bench: --preset or --campaign, not both" >&2; exit 2; }
# The edition of part (a) and (f): --edition, else the campaign file's, else the preset's name.
if [ -z "$edition" ]; then
  if [ -n "$campaign" ] && [ -f "$campaign" ]; then
    edition=$(sed -n 's/^edition *= *"\([^"]*\)".*/\1/p' "$campaign" | head -n 1)
  fi
  edition=${edition:-${preset:-hipe-2022}}
fi
if [ -z "$only" ]; then
  parts="a b c d e g h i"
  [ -n "${OFFICIAL_SCORER:-}" ] && parts="$parts f"
else
  parts=" ${only//,/ } "
  for p in $parts; do
    case "$p" in a|b|c|d|e|f|g|h|i) ;; *) echo "bench: --only takes a,b,c,d,e,f,g,h,i (got $p)" >&2; exit 2 ;; esac
  done
fi
want() { case " $parts " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
target=${CARGO_TARGET_DIR:-target}
if [ "$build" = 1 ]; then
  cargo build --release --quiet --bin fairscore --example read_floor --example agree_floor
fi
bin=${FAIRSCORE:-$target/release/fairscore}
floor=${READ_FLOOR:-$target/release/examples/read_floor}
agree_floor=${AGREE_FLOOR:-$target/release/examples/agree_floor}
for b in "$bin" "$floor"; do [ -x "$b" ] || { echo "bench: $b absent" >&2; exit 2; }; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# measure CMD…: runs CMD $reps times (outputs to $tmp/out, emptied before each run); sets
# WALL (median, ms) and RSS (median peak resident set, KiB). When the array FLOOR holds a
# command (measure empties it: set it before each call), each run of CMD is preceded by a
# run of FLOOR, and FWALL and FRSS are set to its medians: the floor and the command see the
# same state of the machine, so their ratio does not drift with the load between two series.
# Exit status 1 is accepted (leaderboard: some file was not scored); a higher one is
# reported, counted in $failed, and measure returns 1.
FLOOR=()
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
# timed PREFIX CMD…: one run of CMD, its output in $tmp/PREFIXstdout and PREFIXstderr; sets
# MS (wall time), KIB (peak resident set) and STATUS (exit status).
timed() {
  local prefix=$1 t0 t1
  shift
  [ "$drop" = 1 ] && drop_caches
  t0=$(date +%s%N)
  set +e
  /usr/bin/time -f "%M" -o "$tmp/${prefix}time" "$@" >"$tmp/${prefix}stdout" 2>"$tmp/${prefix}stderr"
  STATUS=$?
  set -e
  t1=$(date +%s%N)
  MS=$(( (t1 - t0) / 1000000 )) KIB=$(tail -n 1 "$tmp/${prefix}time")
}
measure() {
  local walls=() rsss=() fwalls=() frsss=() i floor_cmd=("${FLOOR[@]}")
  FLOOR=()
  for ((i = 0; i < reps; i++)); do
    if [ ${#floor_cmd[@]} -gt 0 ]; then
      timed f "${floor_cmd[@]}"
      if [ "$STATUS" != 0 ]; then
        echo "bench: floor failed: ${floor_cmd[*]}" >&2; head -n 5 "$tmp/fstderr" >&2
        failed=$((failed + 1))
        return 1
      fi
      fwalls+=("$MS") frsss+=("$KIB")
    fi
    rm -rf "$tmp/out"; mkdir -p "$tmp/out"
    timed "" "$@"
    if [ "$STATUS" -gt 1 ]; then
      echo "bench: exit status $STATUS: $*" >&2; head -n 5 "$tmp/stderr" >&2
      failed=$((failed + 1))
      return 1
    fi
    walls+=("$MS") rsss+=("$KIB")
  done
  WALL=$(median "${walls[@]}")
  RSS=$(median "${rsss[@]}")
  if [ ${#floor_cmd[@]} -gt 0 ]; then
    FWALL=$(median "${fwalls[@]}") FRSS=$(median "${frsss[@]}")
  fi
}
drop_caches() {
  sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || echo "bench: cannot drop caches (not root?)" >&2
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
bytes() { cat "$@" | wc -c; }
# log(t2/t1)/log(n2/n1): 1 for linear growth, a little above 1 for n log n, 2 for quadratic.
exponent() {
  awk -v t1="$1" -v t2="$2" -v n1="$3" -v n2="$4" \
    'BEGIN { if (t1 > 0 && t2 > 0 && n1 > 0 && n2 != n1) printf "%.2f", log(t2 / t1) / log(n2 / n1); else print "-" }'
}
thousands() { printf "%'d" "$1" 2>/dev/null || printf '%s' "$1"; }
header_has() { head -n 1 "$1" | tr -d '\r' | tr '\t' '\n' | grep -qx "$2"; }

# One line of the table: WHAT, then the measured and floor figures.
row() { printf '%-34s %9s %9s %7s   %9s %9s %7s   %s\n' "$@"; }
header() {
  row "work" "wall ms" "floor ms" "ratio" "peak MiB" "vs MiB" "ratio" "goal"
}
echo "fairscore: $bin; $reps runs each, medians; $(nproc) cores; parts: $(echo $parts)"

# ---------------------------------------------------------------------------------------------
# (a) one run
if want a; then
  echo
  if [ ! -f "$one_gold" ] || [ ! -f "$one_run" ]; then
    echo "(a) skipped: $one_gold or $one_run absent"
  elif ! header_has "$one_gold" NE-COARSE-LIT; then
    echo "(a) skipped: $(basename "$one_gold") has no NE-COARSE-LIT column (not a HIPE file)"
  else
    in_kib=$(( $(bytes "$one_gold" "$one_run") / 1024 ))
    echo "(a) one run: $(basename "$one_gold") + $(basename "$one_run"), $(mib "$in_kib") MiB of input; $edition"
    header
    for task in nerc_coarse nerc_fine; do
      if [ "$task" = nerc_fine ] && ! header_has "$one_gold" NE-FINE-LIT; then
        echo "score nerc_fine: skipped, the gold has no NE-FINE-LIT column"
        continue
      fi
      FLOOR=("$floor" "$one_gold" "$one_run")
      measure "$bin" score --ref "$one_gold" --pred "$one_run" --task "$task" \
        --hipe_edition "$edition" --outdir "$tmp/out" || continue
      row "read_floor GOLD RUN" "$FWALL" "-" "-" "$(mib "$FRSS")" "-" "-" "the floor (runs interleaved with the row below)"
      row "score $task" "$WALL" "$FWALL" "$(ratio "$WALL" "$FWALL")" "$(mib "$RSS")" "$(mib "$in_kib")" \
        "$(ratio "$RSS" "$in_kib")" "time ≤1.5× floor, memory ≤2× input"
      # A process's own pages (a few MiB) weigh on small inputs: the peak above the floor's.
      above=$(( RSS > FRSS ? RSS - FRSS : 0 ))
      echo "  (peak above read_floor's own peak: $(mib "$above") MiB = $(ratio "$above" "$in_kib")× the input)"
    done
  fi
fi

# ---------------------------------------------------------------------------------------------
# (b), (c) the campaign
campaign_args=() campaign_abs=/nonexistent
[ -n "$preset" ] && campaign_args+=(--preset "$preset")
if [ -n "$campaign" ]; then
  [ -f "$campaign" ] || { echo "bench: $campaign absent" >&2; exit 2; }
  campaign_abs=$(realpath "$campaign")
  campaign_args+=(--campaign "$campaign_abs")
fi
lb() { # RUNS_DIR OUTDIR [THREADS]: the leaderboard command on the campaign
  printf '%s\0' "$bin" leaderboard --quiet --threads "${3:-$threads}" "${campaign_args[@]}" \
    --gold-dir "$gold_abs" --runs-dir "$1" --resources "$res_abs" --outdir "$2"
}
leaderboard() { # RUNS_DIR: measures the leaderboard; sets SCORED (runs scored) too
  local cmd=()
  mapfile -d '' -t cmd < <(lb "$1" "$tmp/out")
  measure "${cmd[@]}" || return 1
  SCORED=$(sed -n 's/^fairscore: \([0-9]*\) runs scored.*/\1/p' "$tmp/stderr" | tail -n 1)
  # The bytes the leaderboard wrote (per-run outputs, rankings, reports): where they far
  # exceed the input (per-label NEL outputs), writing them is a cost the floor does not have.
  WROTE=$(du -sk "$tmp/out" | cut -f 1)
}
# campaign_inputs RUNS_DIR: sets INPUTS to the files the leaderboard opens for reading (each
# once; OPENS counts the opens), from one run under strace: files of the gold, runs and
# resources directories and the campaign file. Without strace: every .tsv and .txt of the
# three directories.
campaign_inputs() {
  local cmd=() p
  INPUTS=() OPENS=0 HOW="opened by the leaderboard (strace)"
  floor_writes=() floor_name="read_floor every input"
  if ! command -v strace >/dev/null; then
    HOW="every .tsv/.txt of the three directories (strace absent)"
    mapfile -t INPUTS < <(find "$1" "$gold_abs" "$res_abs" -maxdepth 1 \( -name '*.tsv' -o -name '*.txt' \) | sort)
    OPENS=${#INPUTS[@]}
    return
  fi
  rm -rf "$tmp/trace-out"
  mapfile -d '' -t cmd < <(lb "$1" "$tmp/trace-out")
  strace -f -qq -e trace=openat -o "$tmp/strace" "${cmd[@]}" >/dev/null 2>&1 || true
  grep -v 'O_WRONLY\|O_RDWR\|O_DIRECTORY\|O_CREAT' "$tmp/strace" \
    | sed -n 's/.*openat([^"]*"\([^"]*\)".*/\1/p' >"$tmp/opened"
  while IFS= read -r p; do
    case "$p" in "$1"/*|"$gold_abs"/*|"$res_abs"/*|"$campaign_abs") ;; *) continue ;; esac
    [ -f "$p" ] && echo "$p"
  done <"$tmp/opened" >"$tmp/inputs"
  OPENS=$(wc -l <"$tmp/inputs")
  mapfile -t INPUTS < <(sort -u "$tmp/inputs")
  # The floor also writes what this run wrote (same files, same sizes): read+write.
  if [ -d "$tmp/trace-out" ]; then
    floor_writes=(--write-like "$tmp/trace-out" "$tmp/floor-out")
    floor_name="read_floor inputs + outputs"
  fi
}

base_rss=""
if want b || want c; then
  if [ ! -d "$gold_dir" ] || [ ! -d "$runs_dir" ] || [ ! -d "$resources" ]; then
    echo
    absent=""
    for d in "$gold_dir" "$runs_dir" "$resources"; do [ -d "$d" ] || absent="$absent $d"; done
    echo "(b), (c) skipped: not a directory:$absent"
    parts=${parts/b/}; parts=${parts/c/}
  else
    gold_abs=$(realpath "$gold_dir") runs_abs=$(realpath "$runs_dir") res_abs=$(realpath "$resources")
  fi
fi
campaign_name=${campaign:-${preset:-hipe-2022 (default preset)}}

if want b; then
  echo
  campaign_inputs "$runs_abs"
  FLOOR=("$floor" "${floor_writes[@]}" "${INPUTS[@]}")
  if leaderboard "$runs_abs"; then
    lw=$WALL lrss=$RSS base_rss=$RSS base_scored=${SCORED:-?} fw=$FWALL
    echo "(b) campaign $campaign_name: ${SCORED:-?} runs scored; ${#INPUTS[@]} input files $HOW ($OPENS opens), $(mib $(( $(bytes "${INPUTS[@]}") / 1024 ))) MiB; writes $(mib "$WROTE") MiB; $threads threads"
    header
    row "$floor_name" "$fw" "-" "-" "$(mib "$FRSS")" "-" "-" "the floor (runs interleaved with the row below)"
    row "leaderboard" "$lw" "$fw" "$(ratio "$lw" "$fw")" "$(mib "$lrss")" "100.0" \
      "$(ratio "$lrss" 102400)" "time ≤1.5× floor (issue 33), peak ≤100 MiB"
  else
    echo "(b) skipped: the leaderboard failed on this campaign (above)"
  fi
fi

if want c; then
  echo
  # The duplicates are named dupK + the run's name: the campaign's run names must start with
  # the team name.
  pattern=""
  if [ -n "$campaign" ]; then
    pattern=$(sed -n 's/^run_pattern *= *"\([^"]*\)".*/\1/p' "$campaign" | head -n 1)
  fi
  if [ -n "$pattern" ] && [ "${pattern#\{team\}}" = "$pattern" ]; then
    echo "(c) skipped: the campaign's run_pattern ($pattern) does not start with {team}, so runs cannot be copied under other team names"
  else
    dup=$tmp/runs-x4
    mkdir -p "$dup"
    for f in "$runs_abs"/*.tsv; do
      [ -f "$f" ] || continue
      name=$(basename "$f")
      ln -s "$(realpath "$f")" "$dup/$name"
      for k in 1 2 3; do ln -s "$(realpath "$f")" "$dup/dup${k}${name}"; done
    done
    if [ -z "$base_rss" ]; then
      # (b) was not measured: its peak memory, for the ratio.
      leaderboard "$runs_abs" && base_rss=$RSS base_scored=${SCORED:-?}
    fi
    campaign_inputs "$dup"
    FLOOR=("$floor" "${floor_writes[@]}" "${INPUTS[@]}")
    if leaderboard "$dup"; then
      lw=$WALL lrss=$RSS fw=$FWALL
      echo "(c) campaign with every run duplicated 3× under other team names: ${SCORED:-?} runs scored ((b): ${base_scored:-?}); ${#INPUTS[@]} input files ($OPENS opens), $(mib $(( $(bytes "${INPUTS[@]}") / 1024 ))) MiB; writes $(mib "$WROTE") MiB"
      header
      row "$floor_name" "$fw" "-" "-" "$(mib "$FRSS")" "-" "-" "the floor (runs interleaved with the row below)"
      row "leaderboard" "$lw" "$fw" "$(ratio "$lw" "$fw")" "$(mib "$lrss")" "$(mib "${base_rss:-0}")" \
        "$(ratio "$lrss" "${base_rss:-0}")" "time ≤2× floor, peak ≈ (b)'s (bounded by the largest file)"
    else
      echo "(c) skipped: the leaderboard failed on the duplicated campaign (above)"
    fi
  fi
fi

# ---------------------------------------------------------------------------------------------
if want d && [ -f scripts/bench_families.sh ]; then
  echo
  echo "(d) scripts/bench_families.sh"
  bash scripts/bench_families.sh
fi

# ---------------------------------------------------------------------------------------------
# (e) fair at scale
fair_counts() { # DIR: "target system units" of the span files written there
  sed -n 's/^spans (target, system): (\([0-9]*\), \([0-9]*\)), units \([0-9]*\)$/\1 \2 \3/p' "$1/log"
}
if want e; then
  echo
  synth=${FAIR_INDEX_TEST:-} t1="" t2="" t4="" ready=0
  if [ -z "$synth" ] && command -v cargo >/dev/null; then
    synth=$(cargo test --release --quiet --no-run --test it --message-format=json 2>/dev/null \
      | grep '"kind":\["test"\],[^}]*"name":"it"' \
      | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
  fi
  if [ ! -d ../shared/data/faireval/ner ]; then
    echo "(e) skipped: ../shared/data/faireval/ner absent (the synthetic pair would not be the documented one)"
  elif [ -z "$synth" ] || [ ! -x "$synth" ]; then
    echo "(e) skipped: the tests/it/families/fair_index.rs binary that writes the inputs is absent (set FAIR_INDEX_TEST)"
  else
    # Copies of the FairEval NER data: 1 and 2 are the first quarter and half of 4 (same seed).
    ready=1
    for c in 1 2 4; do
      mkdir -p "$tmp/fair$c"
      FAIR_SYNTH_DIR="$tmp/fair$c" FAIR_SYNTH_COPIES=$c "$synth" --ignored --exact \
        families::fair_index::write_synthetic_span_files --nocapture >"$tmp/fair$c/log" 2>&1 || true
    done
    read -r t4 s4 u4 < <(fair_counts "$tmp/fair4") || true
    read -r t1 s1 _ < <(fair_counts "$tmp/fair1") || true
    read -r t2 s2 _ < <(fair_counts "$tmp/fair2") || true
  fi
  if [ "$ready" = 0 ]; then
    :
  elif [ -z "$t1" ] || [ -z "$t2" ] || [ -z "$t4" ]; then
    echo "(e) skipped: the synthetic span files were not written ($tmp/fair*/log)"; cat "$tmp/fair4/log" 2>/dev/null | tail -n 5
  else
    echo "(e) fair at scale: synthetic pair (tests/common/fair_synth.rs from ../shared/data/faireval/ner), $(thousands "$t4") target and $(thousands "$s4") system spans"
    header
    declare -A fwall ffloor
    for c in 4 1 2; do
      d=$tmp/fair$c
      for k in one units; do
        [ "$c" != 4 ] && [ "$k" = units ] && continue
        in_kib=$(( $(bytes "$d/target_$k.spans" "$d/system_$k.spans") / 1024 ))
        FLOOR=("$floor" "$d/target_$k.spans" "$d/system_$k.spans")
        measure "$bin" fair --target "$d/target_$k.spans" --system "$d/system_$k.spans" || continue
        ffloor[$c$k]=$FWALL
        fwall[$c$k]=$WALL
        case "$c$k" in
          4one) what="fair one unit"; goal="≤3× the sentence units (row below)" ;;
          4units) what="fair $(thousands "$u4") sentence units"; goal="the same spans in sentences" ;;
          1one) what="fair one unit, 1/4 of the spans"; goal="growth: n log n, not n²" ;;
          2one) what="fair one unit, 1/2 of the spans"; goal="growth: n log n, not n²" ;;
        esac
        row "$what" "$WALL" "${ffloor[$c$k]}" "$(ratio "$WALL" "${ffloor[$c$k]}")" "$(mib "$RSS")" \
          "$(mib "$in_kib")" "$(ratio "$RSS" "$in_kib")" "$goal"
      done
    done
    echo "one unit / sentence units: $(ratio "${fwall[4one]:-0}" "${fwall[4units]:-0}")× (goal ≤3×)"
    n1=$((t1 + s1)) n2=$((t2 + s2)) n4=$((t4 + s4))
    echo "growth of the one unit, exponent log(t2/t1)/log(n2/n1) (1 linear, ≈1.1 n log n, 2 quadratic):"
    echo "  wall:            1/4 → 1/2: $(exponent "${fwall[1one]:-0}" "${fwall[2one]:-0}" $n1 $n2);  1/2 → all: $(exponent "${fwall[2one]:-0}" "${fwall[4one]:-0}" $n2 $n4);  1/4 → all: $(exponent "${fwall[1one]:-0}" "${fwall[4one]:-0}" $n1 $n4)"
    above() { awk -v a="${fwall[$1]:-0}" -v b="${ffloor[$1]:-0}" 'BEGIN { print (a > b) ? a - b : 0 }'; }
    echo "  above the floor: 1/4 → 1/2: $(exponent "$(above 1one)" "$(above 2one)" $n1 $n2);  1/2 → all: $(exponent "$(above 2one)" "$(above 4one)" $n2 $n4);  1/4 → all: $(exponent "$(above 1one)" "$(above 4one)" $n1 $n4)"
  fi
fi

# ---------------------------------------------------------------------------------------------
# (g) agree beside reading its project
if want g; then
  echo
  if [ ! -x "$agree_floor" ]; then
    echo "(g) skipped: $agree_floor absent (cargo build --release --example agree_floor)"
  else
    "$agree_floor" write "$tmp/agree" 4 20 50000 >/dev/null
    in_kib=$(( $(du -sk --apparent-size "$tmp/agree" | cut -f1) ))
    echo "(g) agree: generated brat project (tests/common/agree_synth.rs), 4 annotators × 20 documents × 50,000 tokens, $(mib "$in_kib") MiB"
    header
    FLOOR=("$agree_floor" read "$tmp/agree")
    if measure "$bin" agree --project "$tmp/agree" --table json; then
      row "agree_floor read (brat reader)" "$FWALL" "-" "-" "$(mib "$FRSS")" "-" "-" "the floor (runs interleaved with the row below)"
      row "agree --table json" "$WALL" "$FWALL" "$(ratio "$WALL" "$FWALL")" "$(mib "$RSS")" "$(mib "$FRSS")" \
        "$(ratio "$RSS" "$FRSS")" "time ≤2× floor, memory linear in the input"
    fi
  fi
fi

# ---------------------------------------------------------------------------------------------
# (f) the official scorer
if want f; then
  echo
  py=${OFFICIAL_PYTHON:-python3}
  if [ -z "${OFFICIAL_SCORER:-}" ] || [ ! -f "$OFFICIAL_SCORER" ]; then
    echo "(f) skipped: OFFICIAL_SCORER does not name the official scorer's clef_evaluation.py"
  elif [ ! -f "$one_gold" ] || [ ! -f "$one_run" ] || ! header_has "$one_gold" NE-COARSE-LIT; then
    echo "(f) skipped: the pair of (a) is absent or not a HIPE file"
  else
    if [ -z "$tagset" ]; then
      for t in "$resources/tagset-hipe2022-all.txt" "$data/resources/tagset-hipe2022-all.txt"; do
        [ -f "$t" ] && { tagset=$t; break; }
      done
    fi
    tag_args=()
    [ -n "$tagset" ] && tag_args=(--tagset "$tagset")
    echo "(f) official scorer ($py $OFFICIAL_SCORER) vs fairscore: $(basename "$one_gold") + $(basename "$one_run"); $edition; ${tagset:+--tagset $(basename "$tagset"); }one process per task"
    frow() { printf '%-42s %12s %12s %9s %10s %9s   %s\n' "$@"; }
    # "at floor": the speed-up of a scorer as fast as read_floor, the most any can reach.
    frow "work" "official ms" "fairscore ms" "speed-up" "floor ms" "at floor" "goal"
    measure "$floor" "$one_gold" "$one_run" || true
    fw=$WALL
    off_sum=0 fs_sum=0 tasks_done=0
    for task in nerc_coarse nerc_fine nel; do
      measure "$py" "$OFFICIAL_SCORER" --ref "$one_gold" --pred "$one_run" --task "$task" \
        --outdir "$tmp/out" --log "$tmp/out/official.log" --hipe_edition "$edition" "${tag_args[@]}" || continue
      # The official scorer prints its errors and exits 0: no output file means it failed.
      if ! ls "$tmp/out/"*"_$task.tsv" >/dev/null 2>&1; then
        echo "$task: the official scorer wrote no output: $(head -c 300 "$tmp/stdout")"; continue
      fi
      ow=$WALL
      measure "$bin" score --ref "$one_gold" --pred "$one_run" --task "$task" --outdir "$tmp/out" \
        --hipe_edition "$edition" "${tag_args[@]}" || continue
      frow "$task" "$ow" "$WALL" "$(ratio "$ow" "$WALL")×" "$fw" "$(ratio "$ow" "$fw")×" "fairscore ≥150× faster"
      off_sum=$((off_sum + ow)) fs_sum=$((fs_sum + WALL)) tasks_done=$((tasks_done + 1))
    done
    if [ "$tasks_done" = 3 ]; then
      frow "the three tasks, three processes each" "$off_sum" "$fs_sum" "$(ratio "$off_sum" "$fs_sum")×" "$((3 * fw))" \
        "$(ratio "$off_sum" "$((3 * fw))")×" "fairscore ≥150× faster"
      # The three tasks in one fairscore process: `score --task nerc_coarse,nerc_fine,nel`
      # reads the two files once and writes the same six files as the three processes.
      if measure "$bin" score --ref "$one_gold" --pred "$one_run" --task nerc_coarse,nerc_fine,nel \
        --outdir "$tmp/out" --hipe_edition "$edition" "${tag_args[@]}"; then
        frow "the three tasks, fairscore in one process" "$off_sum" "$WALL" "$(ratio "$off_sum" "$WALL")×" "$fw" \
          "$(ratio "$off_sum" "$fw")×" "fairscore ≥150× faster (score --task a,b,c)"
      fi
    fi
  fi
fi

# ---------------------------------------------------------------------------------------------
# (h) inspect
if want h; then
  if [ ! -f "$one_gold" ] || [ ! -f "$one_run" ]; then
    echo "(h) skipped: $one_gold or $one_run absent"
  else
    echo "(h) inspect: $(basename "$one_gold") + $(basename "$one_run"), and both repeated 4×"
    header
    # Four copies of each file's documents, renamed (a header line kept once).
    for f in gold run; do
      src=$one_gold; [ "$f" = run ] && src=$one_run
      { head -n 1 "$src"
        for k in 1 2 3 4; do tail -n +2 "$src" | awk 1 | sed "s/document_id = /document_id = c$k-/"; done
      } >"$tmp/$f.x4.tsv"
    done
    if measure "$bin" evaluate --family fair --gold "$one_gold" --pred "$one_run"; then
      ew=$WALL er=$RSS
      if measure "$bin" inspect --gold "$one_gold" --pred "$one_run" -o "$tmp/out/page.html"; then
        iw=$WALL
        row "inspect (page $(thousands "$(bytes "$tmp/out/page.html")") bytes)" "$WALL" "$ew" \
          "$(ratio "$WALL" "$ew")" "$(mib "$RSS")" "$(mib "$er")" "$(ratio "$RSS" "$er")" "vs evaluate --family fair"
        if measure "$bin" inspect --gold "$tmp/gold.x4.tsv" --pred "$tmp/run.x4.tsv" -o "$tmp/out/page.html"; then
          row "inspect, files 4× (page $(thousands "$(bytes "$tmp/out/page.html")") bytes)" "$WALL" "$iw" \
            "$(ratio "$WALL" "$iw")" "$(mib "$RSS")" "-" "-" "growth exponent $(exponent "$iw" "$WALL" 1 4) (linear: 1)"
        fi
      fi
    fi
  fi
fi

# ---------------------------------------------------------------------------------------------
# (i) generative NER: --align fuzzy beside --align exact
if want i; then
  echo
  if ! command -v python3 >/dev/null; then
    echo "(i) skipped: python3 absent"
  elif [ ! -f "$one_gold" ] || ! header_has "$one_gold" NE-COARSE-LIT; then
    echo "(i) skipped: $one_gold absent or not a HIPE file"
  else
    python3 - "$one_gold" "$tmp" <<'PY'
import json, random, sys
gold, d = sys.argv[1], sys.argv[2]
docs, doc, col, span = [], None, None, None
for line in open(gold, encoding="utf-8"):
    c = line.rstrip("\n").split("\t")
    if col is None:
        col = c.index("NE-COARSE-LIT")
        continue
    if line.startswith("#"):
        if "document_id" in line:
            doc = (line.split("=", 1)[1].strip(), [])
            docs.append(doc)
        continue
    if len(c) <= col or doc is None:
        continue
    tag = c[col]
    if tag.startswith("I-") and span:
        span.append(c[0])
        continue
    span = [c[0]] if tag.startswith("B-") else None
    if span:
        doc[1].append(span)
doc_id, name = next((i, n) for i, n in [(i, " ".join(s)) for i, ss in docs for s in ss] if len(n) >= 8)
rng = random.Random(7)
syl = ["zor", "glu", "bax", "tri", "ven", "qua", "mel", "dor", "ski", "pan", "rux", "lei"]
def invented():
    return " ".join("".join(rng.choice(syl) for _ in range(rng.randint(2, 3))).title() for _ in range(rng.randint(1, 3)))
with open(f"{d}/repeat.jsonl", "w") as f:
    f.write(json.dumps({"id": doc_id, "entities": [[name, "PER"]] * 5000}) + "\n")
with open(f"{d}/invented.jsonl", "w") as f:
    size = 0
    while size < 250_000:
        for i, _ in docs:
            line = json.dumps({"id": i, "entities": [[invented(), "LOC"] for _ in range(20)]}) + "\n"
            size += len(line)
            f.write(line)
with open(f"{d}/long.jsonl", "w") as f:
    f.write('{"id": %s, "entities": [["' % json.dumps(doc_id))
    f.write(("%s and " % json.dumps(name)[1:-1]) * (20_000_000 // (len(name) + 5)))
    f.write('", "PER"]]}\n')
PY
    echo "(i) evaluate --family mentions --unit document: --align fuzzy beside --align exact, gold $(basename "$one_gold")"
    header
    for run in repeat invented long; do
      in_kib=$(( $(bytes "$one_gold" "$tmp/$run.jsonl") / 1024 ))
      args=(evaluate --family mentions --unit document --gold "$one_gold" --pred "$tmp/$run.jsonl")
      FLOOR=("$bin" "${args[@]}" --align exact)
      measure "$bin" "${args[@]}" --align fuzzy || continue
      row "--align exact, $run" "$FWALL" "-" "-" "$(mib "$FRSS")" "$(mib "$in_kib")" "$(ratio "$FRSS" "$in_kib")" \
        "the floor (runs interleaved with the row below)"
      row "--align fuzzy, $run" "$WALL" "$FWALL" "$(ratio "$WALL" "$FWALL")" "$(mib "$RSS")" "$(mib "$in_kib")" \
        "$(ratio "$RSS" "$in_kib")" "time ≤3× exact, memory ≤4× input"
    done
  fi
fi

if [ "$failed" -gt 0 ]; then
  echo "bench: $failed command(s) failed (above)" >&2
  exit 1
fi
