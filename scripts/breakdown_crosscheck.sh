#!/usr/bin/env bash
# Cross-checks the bootstrap intervals of breakdown buckets (docs/breakdown.md) against SciPy's
# percentile bootstrap over the same documents, on a real HIPE-2022 run in ../shared.
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
# Extra cargo flags (e.g. --release) can be passed in CARGO_FLAGS.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
xc_init breakdown_crosscheck
xc_need_shared data/hipe2022
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
"$venv/bin/python" scripts/breakdown_crosscheck.py "$json"
