#!/usr/bin/env bash
# Builds fairscore for participants, who have no Rust toolchain, and checks what it built:
#
#   scripts/prebuilt.sh                # the portable binary and the wheel, both checked
#   scripts/prebuilt.sh --binary-only  # the binary only (scripts/codabench_bundle.sh)
#   scripts/prebuilt.sh --check-only   # check what dist/ holds for this version, build nothing
#
# dist/fairscore-VERSION-x86_64-linux-glibc2.17: the command-line tool for Linux x86-64 with
#   glibc 2.17 or later (CentOS 7 and every later distribution, Codabench's images).
# dist/fairscore-VERSION-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl: the Python
#   package, one wheel for CPython 3.10 and later on the same systems.
# Each with a .sha256 beside it. Both are built with cargo-zigbuild and maturin --zig, with
# PyPI's ziglang as linker against glibc 2.17; these tools go into a venv under
# $CARGO_TARGET_DIR/venv (created or completed when needed; FAIRSCORE_ZIG_VENV overrides).
# scripts/prebuilt_check.sh then checks both (glibc versions, wheel tags, an install into a
# fresh venv without cargo on PATH, scores of the bundled example).
# Writes only dist/, the venv and $CARGO_TARGET_DIR/prebuilt/{binary,wheel}: one cargo target
# directory each, because builds with other linker settings in one directory (cargo-zigbuild's,
# maturin's zig, a plain `cargo build`) make each other rebuild every crate. A second run
# with nothing changed takes seconds. A temporary directory is removed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
case "$target_dir" in /*) ;; *) target_dir=$root/$target_dir ;; esac
venv=${FAIRSCORE_ZIG_VENV:-$target_dir/venv}
dist=$root/dist
# The versions the script was written and checked with.
tools=(ziglang==0.17.1 cargo-zigbuild==0.24.1 maturin==1.16.0)

binary=1
wheel=1
build=1
case "${1:-}" in
    "") ;;
    --binary-only) wheel=0 ;;
    --check-only) build=0 ;;
    *) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2; exit 2 ;;
esac
say() { echo "prebuilt: $*" >&2; }

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
py_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/python/pyproject.toml" | head -n 1)
if [ "$version" != "$py_version" ]; then
    say "Cargo.toml says version $version, python/pyproject.toml $py_version: make them equal"
    exit 1
fi
bin_out=$dist/fairscore-$version-x86_64-linux-glibc2.17
wheel_out=$dist/fairscore-$version-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl

if [ $build = 1 ]; then
    if [ ! -x "$venv/bin/cargo-zigbuild" ] || [ ! -x "$venv/bin/maturin" ] \
        || ! "$venv/bin/python3" -c 'import ziglang' 2>/dev/null; then
        say "installing ${tools[*]} into $venv"
        [ -x "$venv/bin/python3" ] || python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check "${tools[@]}"
    fi
    # cargo-zigbuild and maturin find zig through `python3 -m ziglang` of the venv.
    export PATH="$venv/bin:$PATH"
    mkdir -p "$dist"
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/fairscore-prebuilt.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT

    if [ $binary = 1 ]; then
        started=$(date +%s)
        (cd "$root" && CARGO_TARGET_DIR=$target_dir/prebuilt/binary \
            cargo zigbuild --release --locked --target x86_64-unknown-linux-gnu.2.17 --bin fairscore)
        cp "$target_dir/prebuilt/binary/x86_64-unknown-linux-gnu/release/fairscore" "$tmp/fairscore"
        chmod 755 "$tmp/fairscore"
        mv -f "$tmp/fairscore" "$bin_out"
        say "binary built in $(($(date +%s) - started)) s"
    fi
    if [ $wheel = 1 ]; then
        started=$(date +%s)
        # abi3-py310 is a feature of pyo3 in python/Cargo.toml: one wheel for CPython >= 3.10.
        (cd "$root" && CARGO_TARGET_DIR=$target_dir/prebuilt/wheel maturin build --release --locked --zig --compatibility manylinux2014 \
            --target x86_64-unknown-linux-gnu -m python/Cargo.toml -i "$venv/bin/python3" -o "$tmp/wheels")
        built=("$tmp"/wheels/fairscore-*.whl)
        if [ ${#built[@]} != 1 ] || [ "$(basename "${built[0]}")" != "$(basename "$wheel_out")" ]; then
            say "maturin wrote ${built[*]}, not $(basename "$wheel_out")"
            exit 1
        fi
        mv -f "${built[0]}" "$wheel_out"
        say "wheel built in $(($(date +%s) - started)) s"
    fi
fi

check=()
[ $binary = 1 ] && check+=(--binary "$bin_out")
[ $wheel = 1 ] && check+=(--wheel "$wheel_out")
for f in "${check[@]}"; do
    case "$f" in --*) continue ;; esac
    [ -f "$f" ] || { say "no $f (run scripts/prebuilt.sh without --check-only)"; exit 1; }
done
bash "$root/scripts/prebuilt_check.sh" "${check[@]}"

for f in "${check[@]}"; do
    case "$f" in --*) continue ;; esac
    (cd "$dist" && sha256sum "$(basename "$f")" >"$(basename "$f").sha256")
    say "$f ($(du -h --apparent-size "$f" | cut -f 1))"
done
