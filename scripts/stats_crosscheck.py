#!/usr/bin/env python3
"""Independent cross-check of fairscore's resampling statistics (src/metrics/resample.rs).

Reads the JSON written by `cargo test --test it families::resample_shared` (per-document strict NE-COARSE-LIT
counts of every HIPE-2022 nerc_coarse run, fairscore's intervals and paired tests) and
recomputes everything with other code and other random numbers:

- bootstrap intervals of micro P, R, F1 per run: `scipy.stats.bootstrap`, method='percentile',
  one sample whose observations are the documents' (TP, FP, FN) vectors (paired=False,
  vectorized statistic that sums the resampled counts);
- paired bootstrap of A - B: the same with the six counts of both runs per document; the
  shifted-null p-value from SciPy's bootstrap distribution;
- paired approximate randomization: NumPy, swap each document's counts with probability 1/2.

With --leaderboard DIR (the rankings/ directory of `fairscore leaderboard --bootstrap N`), also
checks the leaderboard's marks of the same evaluation (`*.ci.tsv` rows of
COLUMN-micro-REGIME-TIME-ALL-LED-ALL): each row's F1 (exact) and F1 interval against SciPy's
bootstrap of that run's per-document counts, its p_next and p_top against the NumPy
randomization test, and shares_first against p_top >= 1 - confidence (a run within Monte-Carlo
error of the threshold is only reported).

Both sides are Monte-Carlo estimates from unrelated random streams, so they agree only within
Monte-Carlo error. Prints the largest absolute differences and the largest difference in units
of its estimated Monte-Carlo standard error (s.e.). Exits 1 when a micro score differs at all
(1e-12), when a difference exceeds --z-max standard errors (a systematic disagreement), or,
unless --tol-informative is given, when an interval bound differs by more than --ci-tol or a
p-value by more than --p-tol. At 10,000 resamples per side the standard error of a difference
reaches 0.003 for interval bounds of the 13-document test sets and 0.007 for p-values near 0.5,
so the fixed tolerances are a gate at 100,000 resamples and informative at 10,000 (see
docs/statistics.md).
"""

import argparse
import json
import sys

import numpy as np
from scipy import stats

MEASURES = ("P", "R", "F1")


def ratio(num, den):
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den > 0)


def micro(tp, fp, fn):
    """Micro P, R, F1 of (arrays of) summed counts; 0 on empty denominators."""
    p = ratio(tp, tp + fp)
    r = ratio(tp, tp + fn)
    f = ratio(2.0 * (p * r), p + r)
    return {"P": p, "R": r, "F1": f}


def run_statistic(x, axis=-1):
    """Micro P, R, F1 (stacked) of summed counts; rows of x: TP, FP, FN."""
    s = np.sum(x, axis=axis)
    m = micro(s[0], s[1], s[2])
    return np.stack([m[k] for k in MEASURES])


def diff_statistic(x, axis=-1):
    """Micro P, R, F1 of A minus those of B; rows of x: A's TP, FP, FN, then B's."""
    s = np.sum(x, axis=axis)
    a, b = micro(s[0], s[1], s[2]), micro(s[3], s[4], s[5])
    return np.stack([a[k] - b[k] for k in MEASURES])


def quantile_se(dist, q):
    """Monte-Carlo standard error of the q-quantile of a bootstrap distribution
    (sqrt(q(1-q)/B) / density, the density estimated from the spread around the quantile)."""
    b = len(dist)
    h = max(0.01, 2.0 * np.sqrt(q * (1 - q) / b) * 3)
    lo, hi = np.quantile(dist, [max(0.0, q - h), min(1.0, q + h)])
    if hi <= lo:
        return 0.0
    density = (min(1.0, q + h) - max(0.0, q - h)) / (hi - lo)
    return np.sqrt(q * (1 - q) / b) / density


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="the JSON written by tests/it/families/resample_shared.rs")
    ap.add_argument("--samples", type=int, default=None,
                    help="resamples on the Python side (default: as many as fairscore)")
    ap.add_argument("--seed", type=int, default=20240614)
    ap.add_argument("--ci-tol", type=float, default=0.005)
    ap.add_argument("--p-tol", type=float, default=0.01)
    ap.add_argument("--z-max", type=float, default=5.0)
    ap.add_argument("--leaderboard", metavar="DIR", default=None,
                    help="rankings/ of a `leaderboard --bootstrap N` run to check as well")
    ap.add_argument("--leaderboard-samples", type=int, default=None,
                    help="N of that run (default: as many as the JSON's)")
    ap.add_argument("--tol-informative", action="store_true",
                    help="report differences over --ci-tol/--p-tol without failing")
    args = ap.parse_args()

    with open(args.json, encoding="utf-8") as f:
        data = json.load(f)
    ours_b = data["samples"]
    b = args.samples or ours_b
    conf = data["confidence"]
    eps = data["tie_epsilon"]
    rng = np.random.default_rng(args.seed)
    runs = {r["run"]: r for r in data["runs"]}
    counts = {name: np.asarray(r["docs"], dtype=float).T for name, r in runs.items()}  # (3, n)
    alpha = (1 - conf) / 2

    worst = {k: (0.0, "-") for k in ("micro", "ci", "ci_z", "perm_p", "perm_z", "boot_ci",
                                     "boot_ci_z", "boot_p", "boot_z", "lb_micro", "lb_ci",
                                     "lb_ci_z", "lb_p", "lb_p_z")}

    def note(key, value, where):
        if value > worst[key][0]:
            worst[key] = (value, where)

    def p_se(p):
        # Both p-values are Monte-Carlo estimates: standard error of their difference.
        return np.sqrt(p * (1 - p) / ours_b + p * (1 - p) / b)

    for name, r in runs.items():
        c = counts[name]
        est = micro(*c.sum(axis=1))
        res = stats.bootstrap((c,), run_statistic, n_resamples=b, vectorized=True,
                              paired=False, axis=-1, confidence_level=conf,
                              method="percentile", rng=rng)
        ci = res.confidence_interval
        for i, m in enumerate(MEASURES):
            note("micro", abs(float(est[m]) - r["micro"][m]), f"{name} {m}")
            dist = res.bootstrap_distribution[i]
            for k, (theirs, q) in enumerate(((ci.low[i], alpha), (ci.high[i], 1 - alpha))):
                d = abs(float(theirs) - r["ci"][m][k])
                note("ci", d, f"{name} {m} {'lo' if k == 0 else 'hi'}")
                se = quantile_se(dist, q) * np.sqrt(1 + b / ours_b)
                if se > 0:
                    note("ci_z", d / se, f"{name} {m}")

    for pair in data["pairs"]:
        a, bb = counts[pair["a"]], counts[pair["b"]]
        where = f"{pair['a']} vs {pair['b']}"
        n = a.shape[1]
        ea, eb = micro(*a.sum(axis=1)), micro(*bb.sum(axis=1))
        # Approximate randomization: swap[i] says document i's counts change sides.
        swap = rng.random((b, n)) < 0.5
        xa = np.where(swap, bb[:, None, :], a[:, None, :]).sum(axis=-1)  # (3, B)
        xb = np.where(swap, a[:, None, :], bb[:, None, :]).sum(axis=-1)
        ra, rb = micro(*xa), micro(*xb)
        # Paired bootstrap: the documents' six counts (A's, then B's) are one observation.
        res = stats.bootstrap((np.concatenate([a, bb]),), diff_statistic, n_resamples=b,
                              vectorized=True, paired=False, axis=-1,
                              confidence_level=conf, method="percentile", rng=rng)
        for i, m in enumerate(MEASURES):
            observed = float(ea[m] - eb[m])
            ours = pair["permutation"][m]
            note("micro", abs(observed - ours["diff"]), where)
            hits = np.count_nonzero(np.abs(ra[m] - rb[m]) >= abs(observed) - eps)
            p = (hits + 1) / (b + 1)
            d = abs(p - ours["p"])
            note("perm_p", d, f"{where} {m}")
            se = p_se(max(p, ours["p"]))
            if se > 0:
                note("perm_z", d / se, f"{where} {m}")
            ours = pair["bootstrap"][m]
            ci = res.confidence_interval
            dist = res.bootstrap_distribution[i]
            for k, (theirs, q) in enumerate(((ci.low[i], alpha), (ci.high[i], 1 - alpha))):
                d = abs(float(theirs) - ours["ci"][k])
                note("boot_ci", d, f"{where} {m}")
                se = quantile_se(dist, q) * np.sqrt(1 + b / ours_b)
                if se > 0:
                    note("boot_ci_z", d / se, f"{where} {m}")
            hits = np.count_nonzero(np.abs(dist - observed) >= abs(observed) - eps)
            p = (hits + 1) / (b + 1)
            d = abs(p - ours["p"])
            note("boot_p", d, f"{where} {m}")
            se = p_se(max(p, ours["p"]))
            if se > 0:
                note("boot_z", d / se, f"{where} {m}")

    lb_rows = 0
    if args.leaderboard:
        lb_rows = check_leaderboard(args, data, counts, rng, b, note)

    print(f"{len(runs)} runs, {len(data['pairs'])} pairs, {data['column']} {data['regime']}; "
          f"fairscore {ours_b} resamples, SciPy/NumPy {b} resamples, confidence {conf}")
    rows = [
        ("micro scores (exact)", "micro", None, 1e-12),
        ("bootstrap CI bounds, P R F1 per run", "ci", "ci_z", args.ci_tol),
        ("paired bootstrap CI bounds of A-B", "boot_ci", "boot_ci_z", args.ci_tol),
        ("permutation p-values", "perm_p", "perm_z", args.p_tol),
        ("paired bootstrap p-values", "boot_p", "boot_z", args.p_tol),
    ]
    if args.leaderboard:
        print(f"  leaderboard: {lb_rows} rows of {args.leaderboard}/*.ci.tsv")
        rows += [
            ("leaderboard F1 (exact)", "lb_micro", None, 1e-12),
            ("leaderboard F1 CI bounds", "lb_ci", "lb_ci_z", args.ci_tol),
            ("leaderboard p next / p top", "lb_p", "lb_p_z", args.p_tol),
        ]
    failed = False
    for label, key, zkey, tol in rows:
        value, where = worst[key]
        verdict = "ok"
        if value > tol:
            informative = args.tol_informative and zkey is not None
            verdict = "over tol (Monte-Carlo)" if informative else "FAIL"
            failed |= not informative
        z = ""
        if zkey:
            zv, zwhere = worst[zkey]
            z = f"; max {zv:.2f} s.e."
            if zv > args.z_max:
                z += f" FAIL (> {args.z_max}) [{zwhere}]"
                failed = True
        print(f"  {label:37s} max |d| = {value:.5f} (tol {tol}) {verdict}{z}  [{where}]")
    print("disagreement" if failed else "agreement")
    return 1 if failed else 0


def check_leaderboard(args, data, counts, rng, b, note):
    """Checks the leaderboard's .ci.tsv rows of the JSON's evaluation; returns the rows checked.
    A system name is the lower-cased run name; runs not in the JSON fail."""
    import glob
    import os

    lb_b = args.leaderboard_samples or data["samples"]
    conf = data["confidence"]
    alpha = (1 - conf) / 2
    eps = data["tie_epsilon"]
    evaluation = f"{data['column']}-micro-{data['regime']}-TIME-ALL-LED-ALL"
    by_system = {name.lower(): c for name, c in counts.items()}
    checked = 0

    def perm_p(a, bb):
        ea, eb = micro(*a.sum(axis=1)), micro(*bb.sum(axis=1))
        observed = float(ea["F1"] - eb["F1"])
        swap = rng.random((b, a.shape[1])) < 0.5
        xa = np.where(swap, bb[:, None, :], a[:, None, :]).sum(axis=-1)
        xb = np.where(swap, a[:, None, :], bb[:, None, :]).sum(axis=-1)
        d = micro(*xa)["F1"] - micro(*xb)["F1"]
        return (np.count_nonzero(np.abs(d) >= abs(observed) - eps) + 1) / (b + 1)

    def p_se(p):
        return np.sqrt(p * (1 - p) / lb_b + p * (1 - p) / b)

    files = sorted(glob.glob(os.path.join(args.leaderboard, "*.ci.tsv")))
    if not files:
        raise SystemExit(f"stats_crosscheck: no .ci.tsv in {args.leaderboard}")
    for path in files:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()[1:]
        rows = [line.split("\t") for line in lines]
        rows = [r for r in rows if r[1] == evaluation]
        for i, r in enumerate(rows):
            system, f1, lo, hi, p_next, p_top, shares = (
                r[0], float(r[2]), float(r[3]), float(r[4]), r[5], float(r[6]), r[7])
            where = f"{os.path.basename(path)} {system}"
            if system not in by_system:
                raise SystemExit(f"stats_crosscheck: {where}: no per-document counts")
            c = by_system[system]
            note("lb_micro", abs(float(micro(*c.sum(axis=1))["F1"]) - f1), where)
            res = stats.bootstrap((c,), run_statistic, n_resamples=b, vectorized=True,
                                  paired=False, axis=-1, confidence_level=conf,
                                  method="percentile", rng=rng)
            ci = res.confidence_interval
            dist = res.bootstrap_distribution[2]
            for k, (theirs, q, ours) in enumerate(((ci.low[2], alpha, lo),
                                                    (ci.high[2], 1 - alpha, hi))):
                d = abs(float(theirs) - ours)
                note("lb_ci", d, f"{where} {'lo' if k == 0 else 'hi'}")
                se = quantile_se(dist, q) * np.sqrt(1 + b / lb_b)
                if se > 0:
                    note("lb_ci_z", d / se, where)
            tests = []
            if i + 1 < len(rows):
                tests.append(("next", float(p_next), perm_p(c, by_system[rows[i + 1][0]])))
            if i > 0:
                top = perm_p(c, by_system[rows[0][0]])
                tests.append(("top", p_top, top))
                threshold = 1 - conf
                clear = abs(top - threshold) > 5 * p_se(threshold)
                if (top >= threshold) != (shares == "yes") and clear:
                    raise SystemExit(f"stats_crosscheck: {where}: shares_first {shares}, "
                                     f"but p top is {top:.4f}")
            elif p_top != 1.0 or shares != "yes":
                raise SystemExit(f"stats_crosscheck: {where}: top row not marked as first")
            for label, ours, theirs in tests:
                d = abs(theirs - ours)
                note("lb_p", d, f"{where} p {label}")
                se = p_se(max(theirs, ours))
                if se > 0:
                    note("lb_p_z", d / se, f"{where} p {label}")
            checked += 1
    return checked


if __name__ == "__main__":
    sys.exit(main())
