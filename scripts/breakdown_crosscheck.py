"""Cross-checks the bootstrap intervals of breakdown buckets (docs/breakdown.md, "Intervals")
against SciPy: for every bucket of every key, `scipy.stats.bootstrap(method='percentile')`
resamples the same documents (the four counts of each document paired) and computes the
bucket's P, R and F1 from the summed counts, as fairscore does; the interval ends must agree
within the Monte-Carlo error of two independent percentile bootstraps.

Tolerance, in quantile space: each end is the a-quantile (a = 0.025, and 1 - a) of a bootstrap
distribution estimated from N resamples, whose level has a Monte-Carlo standard error of
sqrt(a(1-a)/N); two independent estimates differ by sqrt(2) times that. fairscore's end is
placed in SciPy's bootstrap distribution (the share of resamples below it and up to it: a
bucket of few documents has a lumpy distribution, where an end may be any point of a jump) and
must sit at level a within 5 such standard errors (0.011 at N = 10,000, a = 0.025). The script also checks
each bucket's point values (within 1e-12).

Usage: python scripts/breakdown_crosscheck.py FILE.json (written by the test
families::breakdown_intervals; scripts/breakdown_crosscheck.sh runs both).
"""

import json
import math
import sys

import numpy as np
from scipy import stats


def prf(tp_gold, fn, tp_run, fp):
    """P, R and F1 of summed counts; 0 where a denominator is 0 (docs/breakdown.md)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(tp_run + fp > 0, tp_run / np.maximum(tp_run + fp, 1e-300), 0.0)
        r = np.where(tp_gold + fn > 0, tp_gold / np.maximum(tp_gold + fn, 1e-300), 0.0)
        f = np.where(p + r > 0, 2 * p * r / np.maximum(p + r, 1e-300), 0.0)
    return p, r, f


def check_interval(name, c, points, ci, n, level, rng):
    """Checks one bucket: its point values `points` ({metric: value}) against the summed
    per-unit counts `c` (units x 4: TP-gold, FN, TP-run, FP), within 1e-12, and each interval
    `ci` ({metric: (lo, hi)}) against SciPy's percentile bootstrap over the same units.
    Returns (interval ends checked, failures, largest difference as a share of the
    tolerance)."""
    a = (1 - level) / 2
    checked = failed = 0
    worst = 0.0
    for m, idx in (("P", 0), ("R", 1), ("F1", 2)):

        def stat(tg, fn_, tr, fp, axis=-1):
            return prf(tg.sum(axis=axis), fn_.sum(axis=axis), tr.sum(axis=axis),
                       fp.sum(axis=axis))[idx]

        point = stat(c[:, 0], c[:, 1], c[:, 2], c[:, 3])
        if m in points and abs(point - points[m]) > 1e-12:
            print(f"{name} {m}: point {points[m]} != {point}")
            failed += 1
        if m not in ci:
            continue
        res = stats.bootstrap((c[:, 0], c[:, 1], c[:, 2], c[:, 3]), stat,
                              paired=True, vectorized=True, n_resamples=n,
                              confidence_level=level, method="percentile",
                              random_state=rng)
        dist = np.asarray(res.bootstrap_distribution)
        lo, hi = res.confidence_interval.low, res.confidence_interval.high
        # In quantile space: fairscore's end, placed in SciPy's bootstrap distribution,
        # must sit at the end's level within 5 Monte-Carlo standard errors of the
        # difference of two estimates (a bucket of few documents has a lumpy
        # distribution: the end may be any point of a jump of the CDF).
        tol_q = 5 * math.sqrt(2 * a * (1 - a) / n)
        for end, ours, theirs, q in (("lo", ci[m][0], lo, a), ("hi", ci[m][1], hi, 1 - a)):
            below = float(np.mean(dist < ours - 1e-12))
            upto = float(np.mean(dist <= ours + 1e-12))
            off = max(below - q, q - upto, 0.0)
            worst = max(worst, off / tol_q)
            checked += 1
            if off > tol_q:
                failed += 1
                print(f"{name} {m} {end}: fairscore {ours:.5f} at "
                      f"quantiles [{below:.4f}, {upto:.4f}] of SciPy's distribution "
                      f"(SciPy's end {theirs:.5f}, level {q}, tolerance {tol_q:.4f})")
    return checked, failed, worst


def main() -> int:
    data = json.load(open(sys.argv[1]))
    n = data["samples"]
    level = data["confidence"]
    rng = np.random.default_rng(2022)
    checked = failed = 0
    worst = 0.0
    for key in data["keys"]:
        for b in key["buckets"]:
            c = np.asarray(b["counts"], dtype=float)  # documents x 4
            if not b["ci"]:
                continue
            points = {m: v["point"] for m, v in b["ci"].items()}
            ci = {m: (v["lo"], v["hi"]) for m, v in b["ci"].items()}
            k, f, w = check_interval(f"{key['key']} {b['bucket']}", c, points, ci, n, level,
                                     rng)
            checked += k
            failed += f
            worst = max(worst, w)
    print(f"breakdown_crosscheck: {data['run']} against {data['gold']}, {n} resamples: "
          f"{checked} interval ends of {sum(len(k['buckets']) for k in data['keys'])} buckets, "
          f"{failed} outside 5 Monte-Carlo standard errors (largest difference "
          f"{worst:.2f} of its tolerance)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
