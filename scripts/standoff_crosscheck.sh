#!/usr/bin/env bash
# Cross-checks standoff scoring (docs/standoff.md) on real data: `fairscore evaluate --family
# spans|fair` on brat, doccano, Prodigy and Label Studio files, and on a brat gold against a
# CoNLL run, must give exactly the numbers (every count, score and bootstrap interval of every
# table, every label and ALL) of the same spans written as IOB tags in CoNLL files. Standoff is
# scored over positions of a text, CoNLL over tokens, so this is the check that the two
# models agree on real texts (glued punctuation, line breaks inside entities, Greek, long s,
# 100,000-token runs), not only on the random little documents of tests/it/standoff/standoff_scores.rs.
#
# scripts/standoff_crosscheck.py (Python standard library only: no virtual environment) turns
# the HIPE-2022 NERC runs of ../shared/data/hipe2022 (every submissions/*.tsv matched to its
# gold by dataset and language) into the four standoff layouts and CoNLL with its own
# conversion (fairscore is only called to score), compares the results, and also scores the
# HIPE TSV files themselves (`--format hipe`), explaining any difference there. See its
# docstring for what is written and compared.
#
#   scripts/standoff_crosscheck.sh                       # bootstrap 200, seed 7, on two runs
#   BOOTSTRAP=1000 SEED=3 scripts/standoff_crosscheck.sh
#   FAIRSCORE=/path/to/fairscore scripts/standoff_crosscheck.sh   # no build
#
# Builds the release binary (CARGO_TARGET_DIR, default target/) unless FAIRSCORE is given,
# works in a mktemp directory removed on exit. Exit status 1 when a comparison that must be
# equal is not, 2 when fairscore fails. Without ../shared: skip (exit 0) with a notice, or fail
# under CI (scripts/lib.sh). About a minute and a half on two cores.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
xc_init standoff_crosscheck
xc_need_shared data/hipe2022/gold data/hipe2022/submissions
xc_binary

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/standoff_crosscheck.py "$bin" --shared "$shared" --workdir "$tmp" \
    --bootstrap "${BOOTSTRAP:-200}" --seed "${SEED:-7}"
