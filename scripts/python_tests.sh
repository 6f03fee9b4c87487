#!/usr/bin/env bash
# The Python package (python/): builds its wheel with maturin (from PyPI), installs it into a
# fresh virtual environment with pytest, NumPy, seqeval 1.2.2, nervaluate 1.2.1 and Hugging Face
# evaluate (the references of fairscore.seqeval, fairscore.nervaluate and fairscore's HF metric), runs python/tests against the release CLI (built
# here if needed) and measures the Python overhead over the CLI on one large run.
# Tests needing ../shared skip locally and fail under CI (CI or FAIRSCORE_REQUIRE_SHARED set).
# Prints "python_tests: OK" or "python_tests: FAILED: why" last; exits non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
export CARGO_TARGET_DIR="$target"
venv="$target/py-venv"
wheels="$target/py-wheels"
fail() {
  echo "python_tests: FAILED: $*" >&2
  exit 1
}
start=$(date +%s)
rm -rf "$venv" "$wheels"
python3 -m venv "$venv" || fail "cannot create the virtual environment $venv"
"$venv/bin/pip" install -q --disable-pip-version-check maturin pytest numpy seqeval==1.2.2 nervaluate==1.2.1 evaluate \
  || fail "pip install maturin pytest numpy seqeval==1.2.2 nervaluate==1.2.1 evaluate"
cargo build --release --bin fairscore || fail "cargo build --release (the CLI the tests compare with)"
"$venv/bin/maturin" build --release -m python/Cargo.toml -i "$venv/bin/python" -o "$wheels" \
  || fail "maturin build"
wheel=$(ls "$wheels"/fairscore-*.whl 2>/dev/null | head -n 1)
[ -n "$wheel" ] || fail "no wheel in $wheels"
"$venv/bin/pip" install -q --disable-pip-version-check "$wheel" || fail "pip install $wheel"
# From a neutral directory, so that `import fairscore` is the installed wheel.
(cd "$target" && FAIRSCORE_BIN="$target/release/fairscore" \
  "$venv/bin/python" -m pytest -p no:cacheprovider -q "$OLDPWD/python/tests") \
  || fail "pytest python/tests"
"$venv/bin/python" scripts/python_overhead.py --cli "$target/release/fairscore" \
  || fail "python_overhead.py"
# Optional: fairscore's Python package beside seqeval on 1M tokens (issue 23's floors):
# PYTHON_SPEED=1 runs scripts/python_speed.py here (about 1-3 minutes, most of it seqeval's).
if [ "${PYTHON_SPEED:-0}" = 1 ]; then
  "$venv/bin/python" scripts/python_speed.py || fail "python_speed.py"
fi
echo "python_tests: OK: wheel $(basename "$wheel") built, installed and tested in $(( $(date +%s) - start )) s"
