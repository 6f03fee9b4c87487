#!/usr/bin/env bash
# Cross-checks the kappas and alpha of `fairscore agree` against NLTK and the krippendorff
# package (scripts/agreement_crosscheck.py) on the tiny project of tests/data, a copy of it with
# a missing document (alpha only), a copy with two annotators (Cohen's kappa proper) and,
# when ../shared is there, bratiaa's example project.
# Makes its own virtual environment under $CARGO_TARGET_DIR; skips with a notice when the
# packages cannot be installed (fails instead under CI; scripts/lib.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
xc_init agreement_crosscheck
xc_venv agreement-venv "import nltk, krippendorff, numpy" nltk krippendorff numpy
xc_binary
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r tests/data/brat-tiny "$tmp/missing"
rm "$tmp/missing/ann2/doc2.ann" "$tmp/missing/ann2/doc2.txt"
cp -r tests/data/brat-tiny "$tmp/two"
rm -r "$tmp/two/ann3"
projects=(tests/data/brat-tiny "$tmp/missing" "$tmp/two")
if xc_have_shared data/brat/bratiaa-example/example-project; then
  projects+=("$shared/data/brat/bratiaa-example/example-project")
fi
"$venv/bin/python" scripts/agreement_crosscheck.py "$bin" "${projects[@]}"
