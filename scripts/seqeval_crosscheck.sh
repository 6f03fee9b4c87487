#!/usr/bin/env bash
# Cross-checks `score --format conll` against seqeval on the 31 HIPE-2022 NERC runs written as
# CoNLL by tests/it/families/conll_parity.rs (run `cargo test --release --test it families::conll_parity` first).
# Makes its own virtual environment ($CARGO_TARGET_DIR/seqeval-venv); without it or the runs:
# skip with a notice, or fail under CI (scripts/lib.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
xc_init seqeval_crosscheck
dir="$target/tmp/conll_parity"
[ -d "$dir" ] || xc_skip "$dir absent (run the conll_parity test with ../shared first)"
xc_venv seqeval-venv "import seqeval" seqeval
"$venv/bin/python" scripts/seqeval_crosscheck.py "$dir"
