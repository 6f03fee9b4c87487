#!/usr/bin/env bash
# Checks the prebuilt fairscore binary and wheel that scripts/prebuilt.sh writes to dist/:
#
#   scripts/prebuilt_check.sh [--binary BIN] [--wheel WHEEL]
#
# Binary: needs no glibc symbol version above 2.17, runs `--version`, scores the bundled
# example byte for byte as reference_runs/expected has it and passes `check` on it.
# Wheel: its tags are abi3 and manylinux with glibc <= 2.17, its extension module needs no
# glibc above 2.17, and it installs with pip (no index, no build) into a fresh venv under
# `env -i PATH=/usr/bin:/bin` (no cargo or rustc there), where `import fairscore` scores: the
# seqeval drop-in on small lists, `evaluate`, `check` and `score` on the bundled example
# (the same JSON as the binary writes, when both are checked).
# Works in a temporary directory, removed at the end; prints "prebuilt_check: OK" last.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=
wheel=
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) bin=$2; shift 2 ;;
        --wheel) wheel=$2; shift 2 ;;
        *) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2; exit 2 ;;
    esac
done
if [ -z "$bin" ] && [ -z "$wheel" ]; then
    echo "prebuilt_check: give --binary BIN, --wheel WHEEL or both" >&2
    exit 2
fi
fail() {
    echo "prebuilt_check: FAILED: $*" >&2
    exit 1
}
say() { echo "prebuilt_check: $*" >&2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fairscore-prebuilt-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

gold=$root/reference_runs/HIPE-2022-demo-test-en.tsv
run=$root/reference_runs/demo_bundle4_newseye_en_1.tsv
expected=$root/reference_runs/expected/demo_bundle4_newseye_en_1_nerc_coarse.tsv

# The GLIBC_x.y versions an ELF file needs, one a line: readelf or objdump when installed,
# else pyelftools (from PyPI, into a venv in $tmp). FAIRSCORE_ELF_TOOL=readelf|objdump|elftools
# picks one.
glibc_versions() {
    local tool=${FAIRSCORE_ELF_TOOL:-}
    if [ -z "$tool" ]; then
        if command -v readelf >/dev/null 2>&1; then tool=readelf
        elif command -v objdump >/dev/null 2>&1; then tool=objdump
        else tool=elftools
        fi
    fi
    case "$tool" in
        readelf) readelf -V -W "$1" ;;
        objdump) objdump -T "$1" ;;
        elftools)
            if [ ! -x "$tmp/elf-venv/bin/python" ]; then
                python3 -m venv "$tmp/elf-venv" >&2
                "$tmp/elf-venv/bin/pip" install -q --disable-pip-version-check pyelftools >&2
            fi
            "$tmp/elf-venv/bin/python" - "$1" <<'EOF'
import sys
from elftools.elf.elffile import ELFFile
from elftools.elf.gnuversions import GNUVerNeedSection
with open(sys.argv[1], "rb") as f:
    for section in ELFFile(f).iter_sections():
        if isinstance(section, GNUVerNeedSection):
            for _, auxiliaries in section.iter_versions():
                for aux in auxiliaries:
                    print(aux.name)
EOF
            ;;
        *) fail "FAIRSCORE_ELF_TOOL=$tool: readelf, objdump or elftools" ;;
    esac | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//' | sort -uV
}

# Fails unless the ELF file $1 needs no glibc above 2.17; prints the highest version.
check_glibc() {
    local versions highest
    versions=$(glibc_versions "$1")
    highest=$(printf '%s\n' "$versions" | tail -n 1)
    [ -n "$highest" ] || fail "$2: no GLIBC symbol version found (not a dynamic glibc binary?)"
    if [ "$(printf '%s\n2.17\n' "$highest" | sort -V | tail -n 1)" != "2.17" ]; then
        fail "$2 needs glibc $highest, newer than 2.17 (versions: $(echo $versions))"
    fi
    say "$2: highest glibc symbol version needed: $highest (<= 2.17)"
}

if [ -n "$bin" ]; then
    [ -f "$bin" ] || fail "no binary $bin"
    check_glibc "$bin" "binary $(basename "$bin")"
    if command -v readelf >/dev/null 2>&1; then
        say "binary needs the libraries: $(readelf -d -W "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')"
    fi
    # A copy without the executable bit made executable, as the Codabench command does.
    cp "$bin" "$tmp/fairscore"
    chmod 755 "$tmp/fairscore"
    version=$(env -i PATH=/usr/bin:/bin "$tmp/fairscore" --version) || fail "$bin --version"
    say "binary --version: $version"
    (cd "$tmp" && env -i PATH=/usr/bin:/bin ./fairscore score --ref "$gold" --pred "$run" \
        --task nerc_coarse --hipe-edition hipe-2022 --outdir "$tmp/out" >"$tmp/score.txt" 2>&1) \
        || { cat "$tmp/score.txt" >&2; fail "the binary does not score the bundled example"; }
    cmp "$tmp/out/demo_bundle4_newseye_en_1_nerc_coarse.tsv" "$expected" \
        || fail "the binary's score of the bundled example differs from $expected"
    env -i PATH=/usr/bin:/bin "$tmp/fairscore" check --gold "$gold" --pred "$run" \
        --task nerc_coarse --hipe-edition hipe-2022 >"$tmp/check.txt" 2>&1 \
        || { cat "$tmp/check.txt" >&2; fail "the binary's check of the bundled example"; }
    say "binary scores the bundled example as reference_runs/expected has it; check passes"
fi

if [ -n "$wheel" ]; then
    [ -f "$wheel" ] || fail "no wheel $wheel"
    # Tags from the wheel's own WHEEL file (not only its name), and its extension module.
    python3 - "$wheel" "$tmp/ext.so" <<'EOF' || fail "the wheel's tags"
import re, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    meta = [n for n in z.namelist() if n.endswith(".dist-info/WHEEL")]
    tags = [l.split(":", 1)[1].strip() for l in z.read(meta[0]).decode().splitlines() if l.startswith("Tag:")]
    modules = [n for n in z.namelist() if n.endswith(".so")]
    if len(modules) != 1:
        sys.exit(f"prebuilt_check: expected one extension module, found {modules}")
    if not modules[0].endswith(".abi3.so"):
        sys.exit(f"prebuilt_check: the extension module {modules[0]} is not an abi3 module")
    with open(out, "wb") as f:
        f.write(z.read(modules[0]))
print(f"prebuilt_check: wheel tags: {', '.join(tags)}", file=sys.stderr)
def glibc(platform):
    if platform in ("manylinux1_x86_64",): return (2, 5)
    if platform in ("manylinux2010_x86_64",): return (2, 12)
    if platform in ("manylinux2014_x86_64",): return (2, 17)
    m = re.fullmatch(r"manylinux_(\d+)_(\d+)_x86_64", platform)
    return (int(m[1]), int(m[2])) if m else None
ok = [t for t in tags if t.split("-")[1] == "abi3" and glibc(t.split("-")[2]) is not None
      and glibc(t.split("-")[2]) <= (2, 17)]
if not ok:
    sys.exit("prebuilt_check: no tag is abi3 with manylinux at glibc <= 2.17")
EOF
    check_glibc "$tmp/ext.so" "the wheel's extension module"

    # A fresh venv in a bare environment: no cargo, no rustc, no index, no build.
    py=/usr/bin/python3
    [ -x "$py" ] || py=$(python3 -c 'import sys; print(sys.executable)')
    bare=(env -i PATH=/usr/bin:/bin HOME="$tmp/home" LANG=C.UTF-8)
    mkdir -p "$tmp/home"
    "${bare[@]}" sh -c '! command -v cargo && ! command -v rustc' >/dev/null \
        || fail "cargo or rustc is on PATH=/usr/bin:/bin: the install test would not show a Rust-free install"
    "${bare[@]}" "$py" -m venv "$tmp/venv" || fail "$py -m venv"
    "${bare[@]}" "$tmp/venv/bin/pip" install -q --disable-pip-version-check --no-index \
        --only-binary=:all: "$wheel" || fail "pip install $wheel in a fresh venv"
    say "installed $(basename "$wheel") into a fresh venv ($("$tmp/venv/bin/python" --version), no cargo on PATH, no index)"
    json=
    [ -n "$bin" ] && json=$tmp/out/demo_bundle4_newseye_en_1_nerc_coarse.json
    (cd "$tmp/home" && "${bare[@]}" "$tmp/venv/bin/python" - "$gold" "$run" "$json" <<'EOF') \
        || fail "import fairscore in the fresh venv"
import json, sys, warnings
import fairscore
from fairscore import seqeval

gold, run, cli_json = sys.argv[1:4]
assert fairscore.__file__.startswith(sys.prefix), fairscore.__file__
# seqeval's README example: one of two entities right in each list, F1 0.5.
y_true = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
f1 = seqeval.f1_score(y_true, y_pred)
assert f1 == 0.5, f1
strict = fairscore.evaluate(y_true, y_pred)["strict"]["ALL"]
assert (strict["correct"], strict["possible"], strict["F1"]) == (1, 2, 0.5), strict
findings = [f for f in fairscore.check(gold, run, "nerc_coarse", "hipe-2022") if f["severity"] != "note"]
assert findings == [], findings
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the example's IOBES tags, as the CLI's check notes them
    result = fairscore.score(gold, run, "nerc_coarse", "hipe-2022")
micro = result["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"]
strict_f1, fuzzy_f1 = micro["strict"]["F1_micro"], micro["ent_type"]["F1_micro"]  # fuzzy: ent_type
assert 0 < strict_f1 <= fuzzy_f1 <= 1, (strict_f1, fuzzy_f1)
same = ""
if cli_json:
    with open(cli_json) as f:
        cli = json.load(f)
    assert cli == json.loads(json.dumps(result)), "the wheel's score differs from the binary's JSON"
    same = "; the same JSON as the binary's"
print(f"prebuilt_check: wheel fairscore {fairscore.__version__}: seqeval.f1_score 0.5, "
      f"bundled example NE-COARSE-LIT strict F1 {strict_f1:.4f}, fuzzy F1 {fuzzy_f1:.4f}{same}",
      file=sys.stderr)
EOF
fi
echo "prebuilt_check: OK"
