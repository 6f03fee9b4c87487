#!/usr/bin/env bash
# Cross-checks `score --format conll` against seqeval on the 31 HIPE-2022 NERC runs written as
# CoNLL by tests/it/families/conll_parity.rs (run `cargo test --release --test it families::conll_parity` first).
# Makes its own virtual environment (target/seqeval-venv); skips with a notice when seqeval
# cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
dir="$target/tmp/conll_parity"
if [ ! -d "$dir" ]; then
  if [ -n "${FAIRSCORE_REQUIRE_SHARED:-}" ]; then
    echo "seqeval_crosscheck: $dir absent although ../shared is required" >&2
    exit 1
  fi
  echo "seqeval_crosscheck: skipped: $dir absent (run the conll_parity test with ../shared first)"
  exit 0
fi
venv="$target/seqeval-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import seqeval" 2>/dev/null; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q seqeval \
    || { echo "seqeval_crosscheck: skipped: seqeval could not be installed"; exit 0; }
fi
"$venv/bin/python" scripts/seqeval_crosscheck.py "$dir"
