#!/usr/bin/env bash
# Writes a Codabench competition bundle (docs/codabench.md) whose scoring program is the
# portable fairscore binary of scripts/prebuilt.sh (glibc 2.17 or later; built and checked
# there, into dist/, with PyPI's ziglang and cargo-zigbuild: no other toolchain is downloaded).
#
#   scripts/codabench_bundle.sh --campaign C.toml --gold-dir GOLD OUT.zip [more flags]
#   scripts/codabench_bundle.sh --check      # build and check the binary only
#
# The venv with the build tools goes to $CARGO_TARGET_DIR/venv (created when missing;
# FAIRSCORE_ZIG_VENV overrides). Every flag is passed to `fairscore codabench-bundle`, with
# --binary set to the built binary.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
check_only=0
if [ "${1:-}" = "--check" ]; then
    check_only=1
    shift
fi
if [ $check_only = 0 ] && [ $# = 0 ]; then
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi

bash "$root/scripts/prebuilt.sh" --binary-only
if [ $check_only = 1 ]; then
    exit 0
fi
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
bin=$root/dist/fairscore-$version-x86_64-linux-glibc2.17
"$bin" codabench-bundle --binary "$bin" "$@"
