#!/usr/bin/env bash
# The mentions family on a million predicted mentions (issue 36): 100,000 units of 10 gold
# and 10 predicted mentions each (JSON records, 20 % upper-cased, 10 % retyped). Times the
# scoring beside its floor: the same files where no record but the first names a gold unit
# (a run naming none is refused), so that both files are read and every answer parsed, but
# nothing else predicted is scored.
# Then the same files with --align exact, in the mentions family and as a run of the spans
# family. Usage: scripts/mentions_bench.sh [REPS]   (needs python3 and a release build)
set -euo pipefail
reps=${1:-3}
bin=${CARGO_TARGET_DIR:-target}/release/fairscore
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import json, random, sys
d = sys.argv[1]
random.seed(1)
words = ["Paris", "Anna", "Berlin", "Acme", "Rome", "Nile", "Otto", "Lyon", "Oslo", "Mars", "Kiev", "Bern"]
types = ["PER", "LOC", "ORG", "MISC"]
with open(f"{d}/gold.jsonl", "w") as g, open(f"{d}/run.jsonl", "w") as p, open(f"{d}/floor.jsonl", "w") as q:
    for i in range(100000):
        ents = [[f"{random.choice(words)} {random.choice(words)}", random.choice(types)] for _ in range(10)]
        g.write(json.dumps({"id": str(i), "text": " and ".join(e[0] for e in ents) + " .", "entities": ents}) + "\n")
        pe = [[e[0] if random.random() < 0.8 else e[0].upper(), e[1] if random.random() < 0.9 else "LOC"] for e in ents]
        p.write(json.dumps({"id": str(i), "entities": pe}) + "\n")
        q.write(json.dumps({"id": str(i) if i == 0 else "x" + str(i), "entities": pe}) + "\n")
PY
for ((k = 0; k < reps; k++)); do
    for run in floor run; do
        /usr/bin/time -f "$run %e s %U s user %M KB" "$bin" evaluate --family mentions \
            --gold "$dir/gold.jsonl" --pred "$dir/$run.jsonl" 2>&1 >/dev/null | grep -v warning
    done
done
# The same run placed on the gold's texts and scored by the spans family (docs/generative.md,
# "Aligned runs in the span families"), beside the mentions family placing it the same way.
for ((k = 0; k < reps; k++)); do
    for run in floor run; do
        /usr/bin/time -f "mentions --align exact $run %e s %U s user %M KB" "$bin" evaluate \
            --family mentions --align exact --gold "$dir/gold.jsonl" --pred "$dir/$run.jsonl" \
            2>&1 >/dev/null | grep -v warning
        /usr/bin/time -f "spans --align exact $run %e s %U s user %M KB" "$bin" evaluate \
            --family spans --align exact --gold "$dir/gold.jsonl" --pred "$dir/$run.jsonl" \
            2>&1 >/dev/null | grep -v warning
    done
done
