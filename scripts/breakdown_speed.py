"""The cost of `evaluate --family spans --breakdown` beside the same `evaluate` without it
(issue 35: a breakdown may add at most a third), on the largest HIPE-2022 gold of ../shared
(newseye German, ~100k lines) and a real run: the median and best wall-clock time of N
interleaved runs of each configuration, without and with `--bootstrap 1000`:

- `none`: the spans family alone;
- `eight`: the eight keys that need no training file;
- `train`: all eleven keys, the HIPE-2022 newseye French gold (~71k lines) as training file
  (its reading is part of the cost).

Usage: python scripts/breakdown_speed.py [--repeat N] [--bin PATH]
(the binary defaults to $CARGO_TARGET_DIR/release/fairscore, else target/release/fairscore).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "hipe2022"
KEYS8 = "label,length,chars,sentence_length,density,capitalisation,position,document"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    ap.add_argument("--bin", default=str(target / "release" / "fairscore"))
    a = ap.parse_args()
    gold = DATA / "gold" / "HIPE-2022-v2.1-newseye-test-de.tsv"
    run = DATA / "submissions" / "team4_bundle4_newseye_de_1.tsv"
    train = DATA / "gold" / "HIPE-2022-v2.1-newseye-test-fr.tsv"
    if not gold.is_file():
        print("breakdown_speed: skipped: ../shared absent", file=sys.stderr)
        return 0
    base = [a.bin, "evaluate", "--family", "spans", "--gold", str(gold), "--pred", str(run),
            "--json", os.devnull]
    configs = {
        "none": [],
        "eight": ["--breakdown", KEYS8],
        "train": ["--breakdown", KEYS8 + ",oov,train_freq,train_consistency", "--train", str(train)],
    }
    print("| resampling | configuration | median ms | best ms | median vs none |")
    print("|---|---|---|---|---|")
    for extra in ([], ["--bootstrap", "1000"]):
        times = {k: [] for k in configs}
        for _ in range(a.repeat):
            for k, args in configs.items():
                t = time.perf_counter()
                p = subprocess.run(base + args + extra, capture_output=True)
                times[k].append(time.perf_counter() - t)
                if p.returncode != 0:
                    print(p.stderr.decode(), file=sys.stderr)
                    return 1
        none = statistics.median(times["none"])
        for k, v in times.items():
            med = statistics.median(v)
            print(f"| {'bootstrap 1000' if extra else 'none'} | {k} | {med * 1e3:.1f} | "
                  f"{min(v) * 1e3:.1f} | {med / none:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
