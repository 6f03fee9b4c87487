"""Time scoring one large run from Python (`fairscore.score`, in-process, the dict included)
against the CLI (`fairscore score`, process start and the atomic writing of its TSV and JSON
included): the best wall-clock and CPU time of N runs each. Prints one line with both times and the overhead; exits 0 (the figure is
reported, not enforced: timings on a shared machine vary), or 0 with a notice when ../shared
is absent.

Usage: python scripts/python_overhead.py [--cli PATH] [--repeat N]
"""
import argparse
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import fairscore

REPO = Path(__file__).resolve().parents[1]


def cpu():
    """CPU time (user + system) of this process and its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def best(f, n):
    """The best wall-clock and the best CPU time of n calls."""
    wall, used = [], []
    for _ in range(n):
        t, c = time.perf_counter(), cpu()
        f()
        wall.append(time.perf_counter() - t)
        used.append(cpu() - c)
    return min(wall), min(used)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=str(REPO / "target" / "release" / "fairscore"))
    ap.add_argument("--repeat", type=int, default=10)
    a = ap.parse_args()
    data = REPO.parent / "shared" / "data" / "hipe2022"
    if not data.is_dir():
        print("python_overhead: skipped: ../shared absent")
        return 0
    run = max((data / "submissions").glob("*_bundle[1-4]_*.tsv"), key=lambda p: p.stat().st_size)
    parts = run.stem.split("_")
    gold = data / "gold" / f"HIPE-2022-v2.1-{parts[2]}-test-{parts[3]}.tsv"
    args = ["score", "--ref", str(gold), "--pred", str(run), "-t", "nerc_coarse", "-e", "hipe-2022"]
    with tempfile.TemporaryDirectory() as out:
        cli = best(lambda: subprocess.run([a.cli, *args, "-o", out], check=True, capture_output=True), a.repeat)

    def py():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fairscore.score(gold, run, "nerc_coarse", "hipe-2022")

    py()  # warm the file cache and imports alike
    pyt = best(py, a.repeat)
    print(
        f"python_overhead: {run.name} ({run.stat().st_size / 1e6:.1f} MB) nerc_coarse, best of {a.repeat}: "
        f"wall CLI {cli[0] * 1000:.1f} ms, Python {pyt[0] * 1000:.1f} ms ({100 * (pyt[0] - cli[0]) / cli[0]:+.1f}%); "
        f"CPU CLI {cli[1] * 1000:.1f} ms, Python {pyt[1] * 1000:.1f} ms ({100 * (pyt[1] - cli[1]) / max(cli[1], 1e-9):+.1f}%)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
