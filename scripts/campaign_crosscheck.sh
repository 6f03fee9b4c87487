#!/usr/bin/env bash
# Cross-checks `fairscore leaderboard` campaigns of family tasks (docs/campaigns.md) against
# independent scorers on real outputs of real tools from ../shared: seqeval and nervaluate
# (CoNLL NER, spans regimes), the FairEval reference result (fair), scripts/muc_crosscheck.py
# (MUC-7), conll18_ud_eval.py (segmentation, tagging), SciPy's percentile bootstrap and a NumPy
# randomization test (intervals, p_next, p_top). See scripts/campaign_crosscheck.py.
#
#   scripts/campaign_crosscheck.sh                 # 10,000 resamples
#   BOOTSTRAP=0 scripts/campaign_crosscheck.sh     # scores only
#   BOOTSTRAP=100000 SEED=7 scripts/campaign_crosscheck.sh
#
# Builds the release binary, writes the HIPE-2022 runs as CoNLL with
# `cargo test --release --test it families::conll_parity` when $CARGO_TARGET_DIR/tmp/conll_parity is absent,
# makes or completes $CARGO_TARGET_DIR/campaign-venv (seqeval, nervaluate 1.x, 1.2.1 installed; SciPy, NumPy) and builds the campaigns in
# $CARGO_TARGET_DIR/tmp/campaign_crosscheck. Exit status 1 on any unexplained difference.
# Without ../shared or the Python packages: skip (exit 0) with a notice, or fail when CI or
# FAIRSCORE_REQUIRE_SHARED is set.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
xc_init campaign_crosscheck
xc_need_shared data/hipe2022 data/faireval/ner data/ud data/peers/conll18
xc_venv campaign-venv "import seqeval, scipy, numpy, importlib.metadata as m
assert m.version('nervaluate').startswith('1.')" seqeval "scipy>=1.11" "numpy>=1.26" nervaluate==1.2.1
xc_binary
if [ ! -d "$target/tmp/conll_parity" ]; then
    echo "campaign_crosscheck: writing the CoNLL runs (test conll_parity)" >&2
    CARGO_TARGET_DIR="$target" cargo test --release --quiet --test it families::conll_parity >/dev/null
fi

"$venv/bin/python" -c 'import importlib.metadata as m
print("campaign_crosscheck: " + ", ".join(
    f"{p} {m.version(p)}" for p in ("seqeval", "nervaluate", "scipy", "numpy")))'
exec "$venv/bin/python" scripts/campaign_crosscheck.py \
    --fairscore "$bin" --shared "$shared" \
    --conll "$target/tmp/conll_parity" --workdir "$target/tmp/campaign_crosscheck" \
    --bootstrap "${BOOTSTRAP:-10000}" --seed "${SEED:-2026}"
