"""The cost of `evaluate --family spans --breakdown` beside the same `evaluate` without it
(issue 35: a breakdown may add at most a third), on the largest HIPE-2022 gold of ../shared
(newseye German, ~100k lines) and a real run: the median and best wall-clock time of N
interleaved runs of each configuration, without and with `--bootstrap 1000`:

- `none`: the spans family alone;
- `eight`: the eight keys that need no training file;
- `train`: all eleven keys, the HIPE-2022 newseye French gold (~71k lines) as training file
  (its reading is part of the cost: the spans family reads it in a thread of its own, beside
  the gold and the run).

Each is timed in wall-clock and in CPU time (user + system of the child, which counts the
training file's thread too). Two floors for the training keys: `none` (the same evaluate
without a breakdown, as issue 35 words it) and `none + read train`: `none` plus the
`read_floor` example reading the training file (read, UTF-8 check, every line split into its
cells), since no breakdown by training keys can avoid reading that file.

With `--family fair`, the same for `evaluate --family fair` (its own counts per bucket; the
sentence keys read the gold's HIPE sentences). `--family hipe` times `evaluate --family hipe
--hipe-edition hipe-2022` instead (its breakdowns of NE-COARSE-LIT in the strict regime; the
training file read in a thread of its own too); `--no-bootstrap` leaves out the resampled
series.

Usage: python scripts/breakdown_speed.py [--repeat N] [--family spans|fair|hipe]
       [--no-bootstrap] [--bin PATH] [--floor PATH]
(the binary defaults to $CARGO_TARGET_DIR/release/fairscore, else target/release/fairscore;
the floor to examples/read_floor beside it: `cargo build --release --example read_floor`).
"""

import argparse
import os
import resource
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
    ap.add_argument("--family", choices=["spans", "fair", "hipe"], default="spans")
    ap.add_argument("--no-bootstrap", action="store_true")
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    ap.add_argument("--bin", default=str(target / "release" / "fairscore"))
    ap.add_argument("--floor", default=str(target / "release" / "examples" / "read_floor"))
    a = ap.parse_args()
    gold = DATA / "gold" / "HIPE-2022-v2.1-newseye-test-de.tsv"
    run = DATA / "submissions" / "team4_bundle4_newseye_de_1.tsv"
    train = DATA / "gold" / "HIPE-2022-v2.1-newseye-test-fr.tsv"
    if not gold.is_file():
        print("breakdown_speed: skipped: ../shared absent", file=sys.stderr)
        return 0
    base = [a.bin, "evaluate", "--family", a.family, "--gold", str(gold), "--pred", str(run),
            "--json", os.devnull]
    if a.family == "hipe":
        base += ["--hipe-edition", "hipe-2022"]
    configs = {
        "none": [],
        "eight": ["--breakdown", KEYS8],
        "train": ["--breakdown", KEYS8 + ",oov,train_freq,train_consistency", "--train", str(train)],
    }
    floor = Path(a.floor).is_file()
    if not floor:
        print(f"breakdown_speed: no {a.floor}: the floor with the training file's reading is "
              "left out", file=sys.stderr)

    def timed(cmd):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True)
        wall = time.perf_counter() - t
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            sys.exit(p.stderr.decode())
        return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)

    print("| resampling | configuration | wall median ms | wall best ms | CPU median ms "
          "| wall vs none | CPU vs none | wall vs none + read train | CPU vs none + read train |")
    print("|---|---|---|---|---|---|---|---|---|")
    series = [[]] if a.no_bootstrap else [[], ["--bootstrap", "1000"]]
    print(f"family {a.family}, {a.repeat} interleaved runs each")
    for extra in series:
        times = {k: [] for k in configs}
        reads = []
        for _ in range(a.repeat):
            for k, args in configs.items():
                times[k].append(timed(base + args + extra))
            if floor:
                reads.append(timed([a.floor, str(train)]))
        med = {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v))
               for k, v in times.items()}
        read = (statistics.median(x[0] for x in reads),
                statistics.median(x[1] for x in reads)) if floor else None
        for k, v in times.items():
            w, c = med[k]
            both = ""
            if read and k == "train":
                both = (f" {w / (med['none'][0] + read[0]):.2f}x | "
                        f"{c / (med['none'][1] + read[1]):.2f}x |")
            else:
                both = " | |"
            print(f"| {'bootstrap 1000' if extra else 'none'} | {k} | {w * 1e3:.1f} | "
                  f"{min(x[0] for x in v) * 1e3:.1f} | {c * 1e3:.1f} | "
                  f"{w / med['none'][0]:.2f}x | {c / med['none'][1]:.2f}x |{both}")
        if read:
            print(f"| {'bootstrap 1000' if extra else 'none'} | read train (floor part) | "
                  f"{read[0] * 1e3:.1f} | | {read[1] * 1e3:.1f} | | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
