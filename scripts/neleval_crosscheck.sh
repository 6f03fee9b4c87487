#!/usr/bin/env bash
# Cross-checks `fairscore evaluate --family nel` against neleval 3.1.1 (docs/nel.md, "Checked
# against neleval"): every HIPE-2022 NEL run of ../shared (plain and relaxed) converted to
# neleval's annotation format by scripts/neleval_crosscheck.py itself, `neleval evaluate`
# (overall and --by-doc) and `neleval analyze --summary` compared with fairscore's JSON: six
# measures micro and per document at n-best 1, 3 and 5, and the seven error-label counts;
# the first three runs also written as CoNLL with a link column and as brat with N lines.
#
#   scripts/neleval_crosscheck.sh
#   FAIRSCORE=/path/to/fairscore scripts/neleval_crosscheck.sh   # no build
#   NELEVAL_SDIST=/path/neleval-3.1.1.tar.gz scripts/neleval_crosscheck.sh
#
# Makes its own virtual environment ($CARGO_TARGET_DIR/neleval-venv, default target/) with
# neleval==3.1.1 from PyPI (or NELEVAL_SDIST); without it or without ../shared:
# skip (exit 0) with a notice, or fail under CI (scripts/lib.sh).
# Exit 1 when a number differs. About 20 seconds.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
xc_init neleval_crosscheck
xc_need_shared data/hipe2022/gold data/hipe2022/submissions
xc_venv neleval-venv "import importlib.metadata as m; assert m.version('neleval') == '3.1.1'" "${NELEVAL_SDIST:-neleval==3.1.1}"
xc_binary
"$venv/bin/python" scripts/neleval_crosscheck.py "$bin" "$shared"
