#!/usr/bin/env bash
# Cross-checks `fairscore evaluate --family nel` against neleval 3.1.1 (docs/nel.md, "Checked
# against neleval"): every HIPE-2022 NEL run of ../shared (plain and relaxed) converted to
# neleval's annotation format by scripts/neleval_crosscheck.py itself, `neleval evaluate`
# (overall and --by-doc) and `neleval analyze --summary` compared with fairscore's JSON: five
# measures micro and per document at n-best 1, 3 and 5, and the seven error-label counts.
#
#   scripts/neleval_crosscheck.sh
#   FAIRSCORE=/path/to/fairscore scripts/neleval_crosscheck.sh   # no build
#   NELEVAL_SDIST=/path/neleval-3.1.1.tar.gz scripts/neleval_crosscheck.sh
#
# Makes its own virtual environment ($CARGO_TARGET_DIR/neleval-venv, default target/) with
# neleval==3.1.1 from PyPI (or NELEVAL_SDIST); skips with a notice when it cannot be installed.
# Without ../shared: skip (exit 0) with a notice, or fail when FAIRSCORE_REQUIRE_SHARED is set.
# Exit 1 when a number differs. About 20 seconds.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
shared="$root/../shared"

if [ ! -d "$shared/data/hipe2022/gold" ] || [ ! -d "$shared/data/hipe2022/submissions" ]; then
    if [ -n "${FAIRSCORE_REQUIRE_SHARED:-}" ]; then
        echo "neleval_crosscheck: ../shared/data/hipe2022 is absent (required: FAIRSCORE_REQUIRE_SHARED is set)" >&2
        exit 1
    fi
    echo "neleval_crosscheck: skipped: ../shared/data/hipe2022 is absent"
    exit 0
fi

target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
venv="$target/neleval-venv"
if [ ! -x "$venv/bin/python" ] || [ "$("$venv/bin/pip" show neleval 2>/dev/null | sed -n 's/^Version: //p')" != "3.1.1" ]; then
    python3 -m venv "$venv" && "$venv/bin/pip" install -q "${NELEVAL_SDIST:-neleval==3.1.1}" \
        || { echo "neleval_crosscheck: skipped: neleval 3.1.1 could not be installed"; exit 0; }
fi

if [ -n "${FAIRSCORE:-}" ]; then
    bin="$FAIRSCORE"
else
    cargo build --release --quiet
    bin="$target/release/fairscore"
fi
"$venv/bin/python" scripts/neleval_crosscheck.py "$bin" "$shared"
