#!/usr/bin/env bash
# Whole-process wall time of `segmentation`, `tagging`, `muc` and standoff scoring on the largest files of
# ../shared/data/ud and ../shared/data/hipe2022, beside the floor of merely reading and splitting
# the same two files (target/release/examples/read_floor GOLD RUN), and their ratio; the goal of
# issue 10 is a ratio of at most 3. Each figure is the median of N runs (default 11) of a fresh
# process, timed with `date +%s%N`; no dependency beyond bash, coreutils and sort.
#
#   scripts/bench_families.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-11}
case "$n" in ''|*[!0-9]*|0) echo "bench_families: N must be a positive whole number" >&2; exit 2 ;; esac
ud=../shared/data/ud
hipe=../shared/data/hipe2022
[ -d "$ud" ] && [ -d "$hipe" ] || { echo "bench_families: $ud or $hipe absent" >&2; exit 2; }
cargo build --release --examples --bins --quiet
target=${CARGO_TARGET_DIR:-target}
bin=$target/release/fairscore
floor=$target/release/examples/read_floor
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Wall time of one run of a command, in nanoseconds.
once_ns() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null 2>&1 || { echo "bench_families: failed: $*" >&2; exit 1; }
  t1=$(date +%s%N)
  echo $((t1 - t0))
}

# The median (milliseconds, three decimals) of the numbers on stdin, one a line.
median_ms() {
  sort -n | awk '{ v[NR] = $1 }
    END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f", m / 1e6 }'
}

row() { # name gold run command...
  local name=$1 gold=$2 run=$3 i base cmd
  shift 3
  local floor_t=() cmd_t=()
  # Floor and command alternate, so that a change of load on the machine hits both alike.
  for ((i = 0; i < n; i++)); do
    floor_t+=("$(once_ns "$floor" "$gold" "$run")")
    cmd_t+=("$(once_ns "$@")")
  done
  base=$(printf '%s\n' "${floor_t[@]}" | median_ms)
  cmd=$(printf '%s\n' "${cmd_t[@]}" | median_ms)
  awk -v name="$name" -v b="$base" -v c="$cmd" 'BEGIN {
    r = (b > 0) ? c / b : 0
    printf "%-50s %9.1f %9.1f %7.2f  %s\n", name, c, b, r, (r <= 3 ? "ok" : "over 3x") }'
}

echo "median of $n runs, whole process, milliseconds"
printf '%-50s %9s %9s %7s\n' "command (gold / run)" "command" "floor" "ratio"
zg=$ud/segmentation/zh_gsd-ud-dev.conllu
zr=$ud/segmentation/jieba-dev.conllu
row "segmentation zh_gsd / jieba (conllu)" "$zg" "$zr" \
  "$bin" segmentation --format conllu --gold "$zg" --pred "$zr" --json "$out/seg.json"
pg=$ud/tagging/pl_pdb-ud-dev.conllu
pr=$ud/tagging/morfeusz-all-dev.conllu
row "segmentation pl_pdb / morfeusz-all (conllu)" "$pg" "$pr" \
  "$bin" segmentation --format conllu --gold "$pg" --pred "$pr" --json "$out/seg.json"
row "tagging pl_pdb / morfeusz-all" "$pg" "$pr" \
  "$bin" tagging --gold "$pg" --pred "$pr" --json "$out/tag.json"
row "tagging pl_pdb / morfeusz-all (nkjp)" "$pg" "$pr" \
  "$bin" tagging --tagset nkjp --gold "$pg" --pred "$pr" --json "$out/tag.json"
hg=$hipe/gold/HIPE-2022-v2.1-newseye-test-de.tsv
hr=$hipe/submissions/neurbsl_bundle3_newseye_de_1.tsv
row "muc newseye-de / neurbsl_bundle3_1" "$hg" "$hr" \
  "$bin" muc -e hipe-2022 --ref "$hg" --pred "$hr" --json "$out/muc.json"
row "muc newseye-de / neurbsl_bundle3_1, --judgements" "$hg" "$hr" \
  "$bin" muc -e hipe-2022 --ref "$hg" --pred "$hr" --json "$out/muc.json" --judgements "$out/muc.tsv"

# Standoff files (docs/standoff.md): the same newseye-de pair as doccano JSONL (each document's
# tokens joined by spaces, none after NoSpaceAfter; the run's spans on the gold's text), scored
# by the spans and fair families, and the JSONL gold against the HIPE TSV run itself (aligned
# through the text). The floor reads the two files scored.
python3 - "$hg" "$hr" "$out" <<'PY'
import json, sys
def docs(path):
    out, cols = [], None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if cols is None:
            cols = line.split("\t"); continue
        if "document_id = " in line:
            out.append([line.split("document_id = ", 1)[1].strip(), []]); continue
        if not line.strip() or line.startswith("#"):
            continue
        c = line.split("\t")
        out[-1][1].append((c[0], c[cols.index("NE-COARSE-LIT")], c[cols.index("MISC")]))
    return out
gold, run = docs(sys.argv[1]), docs(sys.argv[2])
for side, src in (("gold", gold), ("run", run)):
    with open(f"{sys.argv[3]}/{side}.jsonl", "w", encoding="utf-8") as f:
        for (name, toks), (_, rtoks) in zip(gold, src):
            text, labels, open_, sep = "", [], None, ""
            for (tok, _, misc), (_, tag, _) in zip(toks, rtoks):
                text += sep; s = len(text); text += tok
                p, _, l = tag.partition("-")
                if p == "I" and open_ and open_[2] == l: open_[1] = len(text)
                else:
                    if open_: labels.append(open_); open_ = None
                    if p in ("B", "I"): open_ = [s, len(text), l]
                sep = "" if "NoSpaceAfter" in misc else " "
            if open_: labels.append(open_)
            f.write(json.dumps({"id": name, "text": text, "labels": labels}, ensure_ascii=False) + "\n")
PY
sg=$out/gold.jsonl
sr=$out/run.jsonl
row "spans newseye-de / neurbsl_bundle3_1 (doccano)" "$sg" "$sr" \
  "$bin" evaluate --family spans --gold "$sg" --pred "$sr"
row "fair newseye-de / neurbsl_bundle3_1 (doccano)" "$sg" "$sr" \
  "$bin" evaluate --family fair --gold "$sg" --pred "$sr"
row "spans newseye-de doccano / neurbsl_bundle3_1 TSV" "$sg" "$hr" \
  "$bin" evaluate --family spans --gold "$sg" --pred "$hr"
