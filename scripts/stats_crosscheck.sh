#!/usr/bin/env bash
# Cross-checks fairscore's confidence intervals and significance tests (src/metrics/resample.rs)
# against SciPy and NumPy on the HIPE-2022 runs in ../shared (see docs/statistics.md).
#
#   scripts/stats_crosscheck.sh            # 10,000 resamples (informative) and 100,000 (gate)
#   SAMPLES="10000" scripts/stats_crosscheck.sh
#
# Makes a virtual environment ($CARGO_TARGET_DIR/stats-venv) with SciPy and NumPy, runs
# `cargo test --test it families::resample_shared` (which writes per-document counts and fairscore's results
# as JSON into the target directory), then scripts/stats_crosscheck.py. At 100,000 resamples
# interval bounds must agree within 0.005 and p-values within 0.01; at 10,000 those tolerances
# are reported only (Monte-Carlo error of two independent estimates can exceed them), and at
# every size a difference over 5 Monte-Carlo standard errors fails. Exit status 1 on
# disagreement. Without ../shared: skip (exit 0), or fail under CI (scripts/lib.sh).
# It also runs `fairscore leaderboard --bootstrap N` on the campaign and checks the marks of its
# strict NE-COARSE-LIT tables (rankings/*.ci.tsv) the same way (LEADERBOARD=0 skips that).
# Extra cargo flags (e.g. --release) can be passed in CARGO_FLAGS.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
xc_init stats_crosscheck
xc_need_shared data/hipe2022
xc_venv stats-venv "import scipy, numpy" "scipy>=1.15" "numpy>=1.26"
"$venv/bin/python" -c 'import scipy, numpy; print(f"SciPy {scipy.__version__}, NumPy {numpy.__version__}")'

status=0
for n in ${SAMPLES:-10000 100000}; do
    echo "== $n resamples"
    json="$target/tmp/stats_crosscheck/hipe2022-$n.json"
    rm -f "$json"
    log="$(mktemp)"
    # shellcheck disable=SC2086
    if ! STATS_CROSSCHECK_SAMPLES="$n" cargo test ${CARGO_FLAGS:-} --quiet \
        --test it families::resample_shared -- --nocapture >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "stats_crosscheck: cargo test --test it families::resample_shared failed" >&2
        exit 1
    fi
    grep '^stats_crosscheck' "$log" || true
    rm -f "$log"
    if [ ! -f "$json" ]; then
        echo "stats_crosscheck: $json was not written" >&2
        exit 1
    fi
    flags=()
    if [ "$n" -lt 100000 ]; then
        flags+=(--tol-informative)
    fi
    if [ "${LEADERBOARD:-1}" != 0 ]; then
        board="$target/tmp/stats_crosscheck/board-$n"
        data=../shared/data/hipe2022
        # shellcheck disable=SC2086
        if ! cargo run ${CARGO_FLAGS:-} --quiet -- leaderboard --quiet \
            --gold-dir "$data/gold" --runs-dir "$data/submissions" \
            --resources "$data/resources" --outdir "$board" --bootstrap "$n" --seed 2022; then
            echo "stats_crosscheck: fairscore leaderboard --bootstrap $n failed" >&2
            exit 1
        fi
        flags+=(--leaderboard "$board/rankings" --leaderboard-samples "$n")
    fi
    "$venv/bin/python" scripts/stats_crosscheck.py "$json" "${flags[@]}" || status=1
done
exit "$status"
