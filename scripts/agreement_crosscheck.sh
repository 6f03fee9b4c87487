#!/usr/bin/env bash
# Cross-checks the kappas and alpha of `fairscore agree` against NLTK and the krippendorff
# package (scripts/agreement_crosscheck.py) on the tiny project of tests/data, a copy of it with
# a missing document (alpha only), a copy with two annotators (Cohen's kappa proper) and,
# when ../shared is there, bratiaa's example project.
# Makes its own virtual environment under $CARGO_TARGET_DIR; skips with a notice when the
# packages cannot be installed (fails instead under FAIRSCORE_REQUIRE_SHARED).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
venv="$target/agreement-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import nltk, krippendorff, numpy" 2>/dev/null; then
  { python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check nltk krippendorff numpy; } \
    || { echo "agreement_crosscheck: skipped: nltk/krippendorff could not be installed";
         [ -z "${FAIRSCORE_REQUIRE_SHARED:-}" ]; exit $?; }
fi
CARGO_TARGET_DIR="$target" cargo build --release --bin fairscore -q
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r tests/data/brat-tiny "$tmp/missing"
rm "$tmp/missing/ann2/doc2.ann" "$tmp/missing/ann2/doc2.txt"
cp -r tests/data/brat-tiny "$tmp/two"
rm -r "$tmp/two/ann3"
projects=(tests/data/brat-tiny "$tmp/missing" "$tmp/two")
if [ -d ../shared/data/brat/bratiaa-example/example-project ]; then
  projects+=(../shared/data/brat/bratiaa-example/example-project)
elif [ -n "${FAIRSCORE_REQUIRE_SHARED:-}" ]; then
  echo "agreement_crosscheck: ../shared absent although required" >&2
  exit 1
fi
"$venv/bin/python" scripts/agreement_crosscheck.py "$target/release/fairscore" "${projects[@]}"
