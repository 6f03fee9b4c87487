#!/usr/bin/env bash
# Builds a fairscore binary that runs on glibc 2.17 or later (cargo-zigbuild with PyPI's
# ziglang: no other toolchain is downloaded), checks with objdump that it needs no newer glibc
# symbol, and writes a Codabench competition bundle with it (docs/codabench.md).
#
#   scripts/codabench_bundle.sh --campaign C.toml --gold-dir GOLD OUT.zip [more flags]
#   scripts/codabench_bundle.sh --check      # build and check the binary only
#
# The venv with ziglang and cargo-zigbuild goes to $CARGO_TARGET_DIR/venv (created when
# missing; FAIRSCORE_ZIG_VENV overrides). Every flag is passed to `fairscore codabench-bundle`,
# with --binary set to the built binary.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
venv=${FAIRSCORE_ZIG_VENV:-$target_dir/venv}
check_only=0
if [ "${1:-}" = "--check" ]; then
    check_only=1
    shift
fi
if [ $check_only = 0 ] && [ $# = 0 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi

if [ ! -x "$venv/bin/cargo-zigbuild" ]; then
    echo "codabench_bundle: installing ziglang and cargo-zigbuild into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet ziglang cargo-zigbuild
fi
# cargo-zigbuild finds zig through `python3 -m ziglang` of the venv.
export PATH="$venv/bin:$PATH"

started=$(date +%s)
(cd "$root" && cargo zigbuild --release --target x86_64-unknown-linux-gnu.2.17 --bin fairscore)
bin="$target_dir/x86_64-unknown-linux-gnu/release/fairscore"
echo "codabench_bundle: built $bin in $(($(date +%s) - started)) s" >&2

highest=$(objdump -T "$bin" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//' | sort -uV | tail -n 1)
echo "codabench_bundle: highest glibc symbol version needed: ${highest:-none}" >&2
if [ -n "$highest" ] && [ "$(printf '%s\n2.17\n' "$highest" | sort -V | tail -n 1)" != "2.17" ]; then
    echo "codabench_bundle: the binary needs glibc $highest, newer than 2.17" >&2
    objdump -T "$bin" | grep "GLIBC_$highest" >&2 || true
    exit 1
fi
if [ $check_only = 1 ]; then
    exit 0
fi
"$bin" codabench-bundle --binary "$bin" "$@"
