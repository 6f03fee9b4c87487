#!/usr/bin/env bash
# Cross-checks breakdown buckets (docs/breakdown.md) in ../shared, in two parts:
#  1. HIPE-2022 (newseye-de, team4): the bootstrap interval of every bucket against SciPy's
#     percentile bootstrap over the same documents (fairscore's per-document counts);
#  2. the fair family on that run and on neurbsl 3, with newseye-fr as --train file: every bucket of label,
#     length, chars, capitalisation, document, oov, train_freq, train_consistency,
#     sentence_length, density, position and period (and noise on a HIPE-2020 synthetic run)
#     recomputed from the TSV files alone, Ortmann's pairing included
#     (scripts/breakdown_crosscheck_fair.py): bucket names, the ten counts, P, R and F1 equal
#     to fairscore's --json report, intervals against SciPy;
#     and on FairEval's GermEval span files (label, length, document; counts only);
#  3. standoff files (the brat example project: Peter against Lisa with Max as --train file,
#     Peter against Max with Lisa): every bucket of the spans family's keys (label, length,
#     chars, position, document, capitalisation, density, sentence_length, oov, train_freq,
#     train_consistency) recomputed from the brat files alone by the docs' rules
#     (scripts/breakdown_crosscheck_standoff.py): bucket names, counts, P, R and F1 equal to
#     fairscore's --json report, intervals against SciPy over the per-document counts
#     recomputed there;
#  4. the muc family on the HIPE-2022 runs team4 1 and neurbsl 3 (newseye-de): every bucket of
#     label, length, chars, sentence_length, density, capitalisation, position and document
#     recomputed from the TSV files alone, MUC-7's token judgement included
#     (scripts/breakdown_crosscheck_muc.py): bucket names, the eight counts, P, R and F equal
#     to fairscore's --json report, intervals against SciPy.
#
#   scripts/breakdown_crosscheck.sh              # 10,000 resamples
#   SAMPLES=100000 scripts/breakdown_crosscheck.sh
#
# Makes a virtual environment ($CARGO_TARGET_DIR/stats-venv, shared with stats_crosscheck.sh)
# with SciPy and NumPy, runs `cargo test --test it families::breakdown_intervals` (which writes
# every bucket's per-document counts and fairscore's intervals as JSON into the target
# directory), then scripts/breakdown_crosscheck.py (tolerance: 5 Monte-Carlo standard errors
# of the difference of two independent percentile estimates, see the script). Exit status 1
# on disagreement. Without ../shared: skip (exit 0), or fail under CI (scripts/lib.sh).
# Extra cargo flags (e.g. --release) can be passed in CARGO_FLAGS; parts 2 and 3 run the
# release binary ($FAIRSCORE, or built here).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
xc_init breakdown_crosscheck
xc_need_shared data/hipe2022 data/hipe2020-synth data/brat/bratiaa-example/example-project \
    data/faireval/ner
xc_venv stats-venv "import scipy, numpy" "scipy>=1.15" "numpy>=1.26"
n="${SAMPLES:-10000}"
json="$target/tmp/breakdown_crosscheck/$n.json"
rm -f "$json"
log="$(mktemp)"
# shellcheck disable=SC2086
if ! BREAKDOWN_CROSSCHECK_SAMPLES="$n" cargo test ${CARGO_FLAGS:-} --quiet \
    --test it families::breakdown_intervals -- --nocapture >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "breakdown_crosscheck: cargo test --test it families::breakdown_intervals failed" >&2
    exit 1
fi
rm -f "$log"
[ -f "$json" ] || { echo "breakdown_crosscheck: $json was not written" >&2; exit 1; }
status=0
"$venv/bin/python" scripts/breakdown_crosscheck.py "$json" || status=1

xc_binary
out="$target/tmp/breakdown_crosscheck"
mkdir -p "$out"

# Part 2: the fair family's buckets on the HIPE-2022 run.
h="$shared/data/hipe2022"
fgold="$h/gold/HIPE-2022-v2.1-newseye-test-de.tsv"
ftrain="$h/gold/HIPE-2022-v2.1-newseye-test-fr.tsv"
for system in team4_bundle4_newseye_de_1 neurbsl_bundle3_newseye_de_1; do
    frun="$h/submissions/$system.tsv"
    report="$out/fair-$system-$n.json"
    rm -f "$report"
    "$bin" fair --target "$fgold" --system "$frun" --train "$ftrain" \
        --breakdown label,length,chars,capitalisation,document,oov,train_freq,train_consistency,sentence_length,density,position,period \
        --bootstrap "$n" --json "$report" >/dev/null
    "$venv/bin/python" scripts/breakdown_crosscheck_fair.py "$fgold" "$frun" "$ftrain" \
        "$report" || status=1
done
# and a HIPE-2020 synthetic run, whose gold carries noise levels: the twelve keys and noise,
# the gold's historical-normalisation variant as --train file.
s20="$shared/data/hipe2020-synth"
fgold="$s20/gold/HIPE-data-v1.4-test-de.tsv"
ftrain="$s20/gold/HIPE-data-v1.4-test-de_histonorm.tsv"
frun="$s20/submissions/synth1_bundle1_de_1.tsv"
report="$out/fair-synth1-$n.json"
rm -f "$report"
"$bin" fair --target "$fgold" --system "$frun" --train "$ftrain" \
    --breakdown label,length,chars,capitalisation,document,oov,train_freq,train_consistency,sentence_length,density,position,period,noise \
    --bootstrap "$n" --json "$report" >/dev/null
"$venv/bin/python" scripts/breakdown_crosscheck_fair.py "$fgold" "$frun" "$ftrain" \
    "$report" || status=1
# and Ortmann's GermEval span files (nested spans, sentences as units, 20 `document` buckets
# with `(other)`): label, length and document, counts only.
faireval="$shared/data/faireval/ner"
report="$out/fair-germeval.json"
rm -f "$report"
"$bin" fair --target "$faireval/target_ner_spans.csv" --system "$faireval/system_ner_spans.csv" \
    --breakdown label,length,document --json "$report" >/dev/null
"$venv/bin/python" scripts/breakdown_crosscheck_fair.py --spans \
    "$faireval/target_ner_spans.csv" "$faireval/system_ner_spans.csv" "$report" || status=1

# Part 3: standoff files, recomputed from the brat files.
project="$shared/data/brat/bratiaa-example/example-project"
keys=label,length,chars,position,document,capitalisation,density,sentence_length
keys="$keys,oov,train_freq,train_consistency"
for trio in "Lisa Peter Max" "Max Peter Lisa"; do
    read -r gold run train <<<"$trio"
    report="$out/standoff-$run-$gold-$n.json"
    rm -f "$report"
    "$bin" evaluate --family spans --gold "$project/$gold" --pred "$project/$run" \
        --train "$project/$train" --breakdown "$keys" --bootstrap "$n" --json "$report" \
        >/dev/null
    "$venv/bin/python" scripts/breakdown_crosscheck_standoff.py "$project/$gold" \
        "$project/$run" "$project/$train" "$report" || status=1
done

# Part 4: the muc family's buckets on the HIPE-2022 runs, recomputed from the TSV files.
keys=label,length,chars,sentence_length,density,capitalisation,position,document
mgold="$h/gold/HIPE-2022-v2.1-newseye-test-de.tsv"
for system in team4_bundle4_newseye_de_1 neurbsl_bundle3_newseye_de_1; do
    mrun="$h/submissions/$system.tsv"
    report="$out/muc-$system-$n.json"
    rm -f "$report"
    "$bin" muc --gold "$mgold" --pred "$mrun" --breakdown "$keys" --bootstrap "$n" \
        --json "$report" >/dev/null
    "$venv/bin/python" scripts/breakdown_crosscheck_muc.py "$mgold" "$mrun" "$report" "$n" ||
        status=1
done
exit "$status"
