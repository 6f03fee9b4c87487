#!/usr/bin/env bash
# `fairscore inspect`'s page size and peak memory against its inputs' size (issue 47.2), beside
# its floor, `evaluate --family fair` of the same pair (the scoring the page lays out):
#   nested  a brat document of 2,000 nested spans (span i over characters 5i .. len-5i, the
#           run's 2 characters shorter; a 64 KB run): page bytes / input bytes must be <= 4;
#   long    one HIPE-2022 document (the first of the newseye German gold, and the neurbsl run)
#           repeated to about 21.6 MB per file (skipped without ../shared): peak RSS / input
#           bytes and page bytes / input bytes must be <= 4.
# Then scripts/standoff_memory.sh: the standoff scorings' peak memory (a big brat document, one
# long mention string placed by `--align fuzzy`).
# Prints each ratio; exits 1 when one is above 4. Not a timed test: figures vary by machine.
# Usage: scripts/inspect_memory.sh   (needs python3, /usr/bin/time and a release build;
# FAIRSCORE names the binary, default $CARGO_TARGET_DIR/release/fairscore)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${FAIRSCORE:-${CARGO_TARGET_DIR:-target}/release/fairscore}
[ -x /usr/bin/time ] || { echo "inspect_memory: /usr/bin/time absent (apt-get install -y time)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
data=../shared/data/hipe2022
python3 - "$dir" "$data" <<'PY'
import os, sys
d, data = sys.argv[1], sys.argv[2]
words = "Die Stadt Berlin liegt an der Spree und hat viele Einwohner .".split()
text = " ".join(words[i % len(words)] for i in range(4200))
for side, short in (("gold", 0), ("run", 2)):
    os.makedirs(f"{d}/nested/{side}")
    open(f"{d}/nested/{side}/doc.txt", "w").write(text)
    with open(f"{d}/nested/{side}/doc.ann", "w") as f:
        for i in range(2000):
            f.write(f"T{i+1}\tPER {5 * i} {len(text) - 5 * i - short}\t\n")
gold = f"{data}/gold/HIPE-2022-v2.1-newseye-test-de.tsv"
run = f"{data}/submissions/neurbsl_bundle3_newseye_de_1.tsv"
if os.path.exists(gold) and os.path.exists(run):
    os.makedirs(f"{d}/long")
    for path, name in ((gold, "gold"), (run, "run")):
        lines = open(path, encoding="utf-8").read().split("\n")
        starts = [i for i, l in enumerate(lines) if l.startswith("# hipe2022:document_id")]
        doc = lines[starts[0]:starts[1]]
        head = [l for l in doc if l.startswith("#")]
        body = "".join(l + "\n" for l in doc if l.strip() and not l.startswith("#"))
        with open(f"{d}/long/{name}.tsv", "w", encoding="utf-8") as f:
            f.write(lines[0] + "\n" + "".join(l + "\n" for l in head))
            f.write(body * (21_600_000 // len(body.encode())))
PY
fail=0
size() { find "$@" -type f -printf '%s\n' | awk '{s+=$1} END {print s}'; }
check() { # name what ratio
    local verdict=ok
    awk -v r="$3" 'BEGIN {exit !(r > 4)}' && { verdict="ABOVE 4"; fail=1; }
    printf '%-7s %-28s %6.2f  %s\n' "$1" "$2" "$3" "$verdict"
}
for case in nested long; do
    [ -d "$dir/$case" ] || { echo "$case: skipped ($data absent)"; continue; }
    if [ "$case" = nested ]; then g=$dir/nested/gold r=$dir/nested/run; else g=$dir/long/gold.tsv r=$dir/long/run.tsv; fi
    input=$(size "$g" "$r")
    /usr/bin/time -f %M -o "$dir/floor.rss" "$bin" evaluate --family fair --gold "$g" --pred "$r" >/dev/null
    /usr/bin/time -f %M -o "$dir/page.rss" "$bin" inspect --gold "$g" --pred "$r" -o "$dir/page.html"
    page=$(stat -c %s "$dir/page.html")
    rss=$(( $(cat "$dir/page.rss") * 1024 )) floor=$(( $(cat "$dir/floor.rss") * 1024 ))
    echo "$case: inputs $input bytes; page $page bytes; peak RSS inspect $rss, evaluate $floor bytes"
    check "$case" "page / input" "$(awk -v a="$page" -v b="$input" 'BEGIN {print a / b}')"
    # Memory only where the input, not the process's fixed cost, is what it measures.
    if [ "$case" = long ]; then
        check "$case" "peak RSS / input" "$(awk -v a="$rss" -v b="$input" 'BEGIN {print a / b}')"
        printf '%-7s %-28s %6.2f  (floor)\n' "$case" "evaluate peak RSS / input" "$(awk -v a="$floor" -v b="$input" 'BEGIN {print a / b}')"
    fi
done
scripts/standoff_memory.sh || fail=1
exit $fail
