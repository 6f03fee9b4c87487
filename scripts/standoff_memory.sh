#!/usr/bin/env bash
# Peak memory of the standoff scorings against their inputs' size (issue 47.2, memory part):
#   brat  one brat document of 8 MB text (1.5M words, a span `LOC` over every 7th word: 214k
#         spans; .ann 7 MB), the run a copy of the gold (inputs 30 MB): `evaluate --family
#         fair`, `spans`, `muc`, `check` and `inspect`;
#   long  one mention string of 20 MB (a model that never stopped) against a one-line JSONL
#         gold, placed by `--align fuzzy` (no place: written after the text, a false positive):
#         `evaluate --family spans`, `fair`, `muc`, `mentions` and `inspect`.
# Prints peak RSS / input bytes for each; exits 1 when one is above 4. Not a timed test:
# figures vary by machine.
# Usage: scripts/standoff_memory.sh   (needs python3, /usr/bin/time and a release build;
# FAIRSCORE names the binary, default $CARGO_TARGET_DIR/release/fairscore)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${FAIRSCORE:-${CARGO_TARGET_DIR:-target}/release/fairscore}
[ -x /usr/bin/time ] || { echo "standoff_memory: /usr/bin/time absent (apt-get install -y time)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import os, sys
d = sys.argv[1]
words = "Die Stadt Zürich liegt an der Limmat und hat viele Einwohner .".split()
for side in ("gold", "run"):
    os.makedirs(f"{d}/brat/{side}")
ws = [words[i % len(words)] for i in range(1_500_000)]
text = " ".join(ws)
ann, at = [], 0
for i, w in enumerate(ws):
    if i % 7 == 0:
        ann.append(f"T{len(ann) + 1}\tLOC {at} {at + len(w)}\t{w}\n")
    at += len(w) + 1
for side in ("gold", "run"):
    with open(f"{d}/brat/{side}/doc.txt", "w", encoding="utf-8") as f:
        f.write(text)
    with open(f"{d}/brat/{side}/doc.ann", "w", encoding="utf-8") as f:
        f.write("".join(ann))
os.makedirs(f"{d}/long")
with open(f"{d}/long/gold.jsonl", "w") as f:
    f.write('{"id": "1", "text": "Anna went to Paris with Otto.", '
            '"entities": [["Anna", "PER"], ["Paris", "LOC"]]}\n')
with open(f"{d}/long/run.jsonl", "w") as f:
    f.write('{"id": "1", "entities": [["Anna", "PER"], ["')
    f.write("Paris Otto, " * ((20 << 20) // 12))
    f.write('", "LOC"]]}\n')
PY
fail=0
size() { find "$@" -type f -printf '%s\n' | awk '{s+=$1} END {print s}'; }
measure() { # case input what command...
    local case=$1 input=$2 what=$3 verdict=ok
    shift 3
    /usr/bin/time -f %M -o "$dir/rss" "$bin" "$@" >/dev/null 2>"$dir/err" || { echo "$case: $* failed:"; cat "$dir/err"; fail=1; return; }
    local rss=$(( $(cat "$dir/rss") * 1024 ))
    local r; r=$(awk -v a="$rss" -v b="$input" 'BEGIN {print a / b}')
    awk -v r="$r" 'BEGIN {exit !(r > 4)}' && { verdict="ABOVE 4"; fail=1; }
    printf '%-5s %-40s peak %5d MB  %5.2f × input  %s\n' "$case" "$what" $((rss >> 20)) "$r" "$verdict"
}
g=$dir/brat/gold r=$dir/brat/run
input=$(size "$g" "$r")
echo "brat: inputs $input bytes"
for fam in fair spans muc; do measure brat "$input" "evaluate --family $fam" evaluate --family $fam --gold "$g" --pred "$r"; done
measure brat "$input" check check --gold "$g" --pred "$r"
measure brat "$input" inspect inspect --gold "$g" --pred "$r" -o "$dir/page.html"
g=$dir/long/gold.jsonl r=$dir/long/run.jsonl
input=$(size "$g" "$r")
echo "long: inputs $input bytes"
for fam in spans fair muc mentions; do
    measure long "$input" "evaluate --family $fam --align fuzzy" evaluate --family $fam --align fuzzy --gold "$g" --pred "$r"
done
measure long "$input" "inspect --align fuzzy" inspect --align fuzzy --gold "$g" --pred "$r" -o "$dir/page.html"
exit $fail
