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
# seqscore==0.9.0 from PyPI (or SEQSCORE_WHEEL); skips with a notice when it cannot be
# installed. Builds the release binary unless FAIRSCORE is given; works in a mktemp directory
# removed on exit. Exit 1 when a comparison differs. Without ../shared: skip (exit 0) with a
# notice, or fail when FAIRSCORE_REQUIRE_SHARED is set. About three minutes on two cores.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
shared="$root/../shared"

if [ ! -d "$shared/data/hipe2022/gold" ] || [ ! -d "$shared/data/hipe2022/submissions" ]; then
    if [ -n "${FAIRSCORE_REQUIRE_SHARED:-}" ]; then
        echo "seqscore_crosscheck: ../shared/data/hipe2022 is absent (required: FAIRSCORE_REQUIRE_SHARED is set)" >&2
        exit 1
    fi
    echo "seqscore_crosscheck: skipped: ../shared/data/hipe2022 is absent"
    exit 0
fi

target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
venv="$target/seqscore-venv"
if [ ! -x "$venv/bin/seqscore" ] || [ "$("$venv/bin/seqscore" --version 2>/dev/null)" != "seqscore, version 0.9.0" ]; then
    python3 -m venv "$venv" && "$venv/bin/pip" install -q "${SEQSCORE_WHEEL:-seqscore==0.9.0}" \
        || { echo "seqscore_crosscheck: skipped: seqscore 0.9.0 could not be installed"; exit 0; }
fi

if [ -n "${FAIRSCORE:-}" ]; then
    bin="$FAIRSCORE"
else
    CARGO_TARGET_DIR="$target" cargo build --release --bin fairscore -q
    bin="$target/release/fairscore"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/seqscore_crosscheck.py "$bin" "$venv/bin/seqscore" --shared "$shared" \
    --workdir "$tmp" --max-files "${MAX_FILES:-0}"
