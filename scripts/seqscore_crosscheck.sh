#!/usr/bin/env bash
# Cross-checks `fairscore convert` against seqscore 0.9's `convert`, `repair` and `process`
# (docs/convert.md, "Checked against seqscore"), byte for byte, on the HIPE-2022 gold files and
# NERC runs of ../shared written as CoNLL by scripts/seqscore_crosscheck.py itself (see its
# docstring for every comparison).
#
#   scripts/seqscore_crosscheck.sh
#   MAX_FILES=5 scripts/seqscore_crosscheck.sh              # the first 5 files only
#   FAIRSCORE=/path/to/fairscore scripts/seqscore_crosscheck.sh   # no build
#   SEQSCORE_WHEEL=/path/seqscore-0.9.0-py3-none-any.whl scripts/seqscore_crosscheck.sh
#
# Makes its own virtual environment ($CARGO_TARGET_DIR/seqscore-venv, default target/) with
# seqscore==0.9.0 from PyPI (or SEQSCORE_WHEEL); without it or without ../shared:
# skip (exit 0) with a notice, or fail under CI (scripts/lib.sh). Builds the release binary
# unless FAIRSCORE is given; works in a mktemp directory removed on exit. Exit 1 when a comparison differs. About three minutes on two cores.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
xc_init seqscore_crosscheck
xc_need_shared data/hipe2022/gold data/hipe2022/submissions
xc_venv seqscore-venv "import importlib.metadata as m; assert m.version('seqscore') == '0.9.0'" "${SEQSCORE_WHEEL:-seqscore==0.9.0}"
xc_binary

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/seqscore_crosscheck.py "$bin" "$venv/bin/seqscore" --shared "$shared" \
    --workdir "$tmp" --max-files "${MAX_FILES:-0}"
