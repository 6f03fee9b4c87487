#!/usr/bin/env python3
"""Cross-checks `fairscore leaderboard` campaigns of family tasks against independent scorers.

Builds campaign directories (gold/, runs/ named TEAM_RUN.ext, campaign.toml) from the data in
../shared only, runs `fairscore leaderboard` on each without and with `--bootstrap`, reads
leaderboard.json and runs/*.json and compares:

- spans (CoNLL NER, the 31 HIPE-2022 NERC runs written as CoNLL by tests/it/families/conll_parity.rs):
  strict micro P/R/F1 and counts against seqeval's default mode (conlleval semantics); per
  label against seqeval too; the strict, exact, partial and ent_type regimes against
  nervaluate 1.x. Where nervaluate counts differently by design (ent_type; its per-label
  tables), the difference must be reproduced exactly by two short specifications written
  here: SPEC_NERVALUATE (which must give nervaluate's numbers) and SPEC_HIPE (which must give
  fairscore's); a run differing otherwise fails.
- fair: FairEval's GermEval 2014 / Stanza spans against the reference implementation's result
  file (every count, P/R/F1 at its printed precision); the CoNLL runs through family fair
  (traditional counts = seqeval's strict counts).
- muc: the CoNLL runs through family muc against the independent token judgement of
  scripts/muc_crosscheck.py.
- segmentation: jieba and thulac on UD Chinese-GSD dev (text and CoNLL-U runs) against
  conll18_ud_eval.py's Words P/R/F1.
- tagging: Morfeusz 2 first interpretation and a frequency tagger on UD Polish-PDB dev, XPOS
  (tag set nkjp) and UPOS, against conll18_ud_eval.py's XPOS/UPOS accuracy.
- intervals: each ranked run's interval of the ranked metric against
  scipy.stats.bootstrap(method='percentile') over per-unit counts computed here (documents for
  CoNLL with -DOCSTART-, sentences for segmentation and tagging, as leaderboard.json's "unit"
  says), and p_next/p_top against a NumPy paired approximate-randomization test.

Prints one line per check and exits 1 on any unexplained difference.

Usage: campaign_crosscheck.py --fairscore BIN --shared SHARED --conll DIR --workdir DIR
                              [--bootstrap N] [--seed S]
"""

import argparse
import collections
import importlib.util
import json
import math
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
from scipy import stats

from nervaluate import Evaluator
from seqeval.metrics import classification_report
from seqeval.metrics.sequence_labeling import get_entities

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import muc_crosscheck  # noqa: E402  (the independent MUC-7 judgement)

REGIMES = ("strict", "exact", "partial", "ent_type")
EPS = 1e-9  # float noise between two correct implementations of the same formula


class Report:
    """One line per check; remembers failures."""

    def __init__(self):
        self.failed = []

    def line(self, name, equal, total, what="runs equal", note=""):
        ok = equal == total and total > 0
        text = f"campaign_crosscheck: {name}: {equal}/{total} {what}"
        if note:
            text += f"; {note}"
        print(text, flush=True)
        if not ok:
            self.failed.append(name)

    def info(self, text):
        print(f"campaign_crosscheck: {text}", flush=True)

    def fail(self, name, text):
        print(f"campaign_crosscheck: {name}: FAILED: {text}", flush=True)
        self.failed.append(name)

    def detail(self, text):
        print(f"    {text}", flush=True)


def close(a, b, tol=EPS):
    return a is not None and b is not None and abs(float(a) - float(b)) <= tol


# ---------------------------------------------------------------------------------------------
# fairscore


def leaderboard(binary, camp, out, bootstrap=None, seed=None):
    """Runs `fairscore leaderboard` on a campaign directory; returns (leaderboard.json, out)."""
    if out.exists():
        shutil.rmtree(out)
    cmd = [str(binary), "leaderboard", "--quiet", "--campaign", str(camp / "campaign.toml"),
           "--gold-dir", str(camp / "gold"), "--runs-dir", str(camp / "runs"),
           "--outdir", str(out)]
    if bootstrap:
        cmd += ["--bootstrap", str(bootstrap), "--seed", str(seed)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit(f"campaign_crosscheck: {' '.join(cmd)} exited {p.returncode}")
    return json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))


def run_json(out, table, system):
    """runs/SYSTEM_TASK[-GROUP…].json of a leaderboard table's row."""
    name = "-".join([table["task"]] + list((table.get("group") or {}).values()))
    return json.loads((out / "runs" / f"{system}_{name}.json").read_text(encoding="utf-8"))


def rows_of(run, table):
    """{label key: scores} of a result table of runs/*.json."""
    for t in run["tables"]:
        if t["name"] == table:
            return {"/".join(r["key"].values()): r for r in t["rows"]}
    raise KeyError(table)


def tables_of(board, task):
    return [t for t in board["tables"] if t["task"] == task]


# ---------------------------------------------------------------------------------------------
# CoNLL NER: readers and the two counting specifications


def read_conll(path):
    """Documents (lists of tags, the last column) split at -DOCSTART- lines."""
    docs, cur = [], []
    for line in open(path, encoding="utf-8"):
        cells = line.split()
        if not cells:
            continue
        if cells[0] == "-DOCSTART-":
            if cur:
                docs.append(cur)
            cur = []
            continue
        cur.append(cells[-1])
    if cur:
        docs.append(cur)
    return docs


def cut_like(run, gold):
    """A run without document markers is cut into the gold's documents by token counts (as the
    HIPE scorer and fairscore align it)."""
    if len(run) == 1 and len(gold) > 1:
        flat, out, k = run[0], [], 0
        for doc in gold:
            out.append(flat[k:k + len(doc)])
            k += len(doc)
        return out
    return run


def spans(doc):
    """(label, start, end) entities of a tag list, end inclusive, as seqeval reads them."""
    return [(t, s, e) for t, s, e in get_entities(doc)]


def overlap(a, b):
    return a[1] <= b[2] and b[1] <= a[2]


def spec_hipe(golds, preds):
    """SPEC_HIPE: the HIPE scorer's counting (../shared/docs/hipe-scorer-notes.md, "Matching"),
    written here from that text. Per predicted entity in order: equal to a gold entity (label
    and offsets) -> correct everywhere; else walk the gold entities in order: same offsets with
    another label -> strict/ent_type incorrect, exact/partial correct; else the first gold
    entity it overlaps that is not yet matched -> strict/exact incorrect, partial partial,
    ent_type correct if the labels agree; that gold entity is matched. Nothing -> spurious
    (for the predicted label). Unmatched gold entities are missed. Counts per label go to the
    gold entity's label. Returns (overall, per label): {regime: Counter}."""
    matched = [False] * len(golds)
    total = {r: collections.Counter() for r in REGIMES}
    per = collections.defaultdict(lambda: {r: collections.Counter() for r in REGIMES})

    def rec(label, outcome):  # outcome: strict, exact, partial, ent_type
        for r, o in zip(REGIMES, outcome):
            total[r][o] += 1
            per[label][r][o] += 1

    for p in preds:
        if p in golds:
            matched[golds.index(p)] = True
            rec(p[0], ("correct",) * 4)
            continue
        for i, g in enumerate(golds):
            if g[1:] == p[1:]:
                matched[i] = True
                rec(g[0], ("incorrect", "correct", "correct", "incorrect"))
                break
            if overlap(g, p) and not matched[i]:
                matched[i] = True
                rec(g[0], ("incorrect", "incorrect", "partial",
                           "correct" if g[0] == p[0] else "incorrect"))
                break
        else:
            rec(p[0], ("spurious",) * 4)
    for i, g in enumerate(golds):
        if not matched[i]:
            rec(g[0], ("missed",) * 4)
    return total, per


def nv_overlaps(p, g, min_pct=1.0):
    """nervaluate's overlap test: overlapping tokens >= min_pct % of the gold entity."""
    if not overlap(p, g):
        return False
    return (min(p[2], g[2]) - max(p[1], g[1]) + 1) / (g[2] - g[1] + 1) * 100.0 >= min_pct


def spec_nervaluate_regime(golds, preds, regime, why=None):
    """SPEC_NERVALUATE (nervaluate 1.x, strategies.py, read for this check): per document, per
    predicted entity in order, over the gold entities not yet consumed, in order:
    - strict/exact/partial: the first gold entity equal to it (strict: label and offsets;
      exact, partial: offsets) -> correct, consumed, stop; otherwise the first consumable
      gold entity it overlaps (>= 1 % of the gold entity's tokens) -> incorrect (partial:
      partial), consumed; none -> spurious.
    - ent_type: no early stop. Among the overlapping consumable gold entities of its own label
      the one with the least |start difference| + |end difference| (the first on ties) ->
      correct, consumed; else the first overlapping consumable gold entity of another label ->
      incorrect, consumed; none -> spurious.
    Gold entities never consumed are missed, so possible = |gold| and actual = |pred|.
    `why` (a Counter) counts the ent_type choices that are not the first overlapping consumable
    gold entity (the HIPE scorer's choice): "label" when that one has another label and a later
    one the entity's own label, "closer" when a later one of the same label is closer."""
    consumed, c = set(), collections.Counter()
    for p in preds:
        if regime == "ent_type":
            best, best_d, other, first = None, None, None, None
            for i, g in enumerate(golds):
                if i in consumed or not nv_overlaps(p, g):
                    continue
                if first is None:
                    first = i
                d = abs(p[1] - g[1]) + abs(p[2] - g[2])
                if g[0] == p[0]:
                    if best_d is None or d < best_d:
                        best, best_d = i, d
                elif other is None:
                    other = i
            if best is not None:
                c["correct"] += 1
                consumed.add(best)
                if why is not None and best != first:
                    why["label" if golds[first][0] != p[0] else "closer"] += 1
            elif other is not None:
                c["incorrect"] += 1
                consumed.add(other)
            else:
                c["spurious"] += 1
            continue
        hit, first = None, None
        for i, g in enumerate(golds):
            if i in consumed:
                continue
            if g[1:] == p[1:] and (regime != "strict" or g[0] == p[0]):
                hit = i
                break
            if first is None and nv_overlaps(p, g):
                first = i
        if hit is not None:
            c["correct"] += 1
            consumed.add(hit)
        elif first is not None:
            c["partial" if regime == "partial" else "incorrect"] += 1
            consumed.add(first)
        else:
            c["spurious"] += 1
    c["missed"] += len(golds) - len(consumed)
    return c


def spec_nervaluate(golds, preds, labels, why=None):
    """Overall and per label ("entities": the same strategy on the entities of that label
    only, on both sides)."""
    total = {r: spec_nervaluate_regime(golds, preds, r, why) for r in REGIMES}
    per = {}
    for lab in labels:
        g = [x for x in golds if x[0] == lab]
        p = [x for x in preds if x[0] == lab]
        per[lab] = {r: spec_nervaluate_regime(g, p, r) for r in REGIMES}
    return total, per


def nervaluate_version():
    from importlib.metadata import version
    return version("nervaluate")


def add_counts(acc, part):
    for r in REGIMES:
        acc[r].update(part[r])


def prf(c, regime):
    """(TP, actual, possible, P, R, F1) of outcome counts, nervaluate's/HIPE's formulas."""
    actual = c["correct"] + c["incorrect"] + c["partial"] + c["spurious"]
    possible = c["correct"] + c["incorrect"] + c["partial"] + c["missed"]
    tp = c["correct"] + (0.5 * c["partial"] if regime in ("partial", "ent_type") else 0)
    p = tp / actual if actual else 0.0
    r = tp / possible if possible else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return tp, actual, possible, p, r, f


def same_as_table(row, c, regime):
    """A fairscore regime row (TP, FP, FN, P, R, F1) against outcome counts."""
    tp, actual, possible, p, r, f = prf(c, regime)
    s = row["scores"]
    return (close(s["TP"], tp) and close(s["TP"] + s["FP"], actual)
            and close(s["TP"] + s["FN"], possible)
            and close(s["P"], p) and close(s["R"], r) and close(s["F1"], f))


KINDS = ("correct", "incorrect", "partial", "missed", "spurious")


def same_counts(a, b):
    return all(a[k] == b[k] for k in KINDS)


def nv_counter(res):
    return collections.Counter({k: getattr(res, k) for k in KINDS})


# ---------------------------------------------------------------------------------------------
# bootstrap and randomization


def quantile_se(dist, q):
    """Monte-Carlo standard error of the q-quantile of a bootstrap distribution:
    sqrt(q(1-q)/B) / density, the density estimated from the spread around the quantile."""
    b = len(dist)
    h = max(0.01, 6.0 * math.sqrt(q * (1 - q) / b))
    lo, hi = np.quantile(dist, [max(0.0, q - h), min(1.0, q + h)])
    if hi <= lo:
        return 0.0
    density = (min(1.0, q + h) - max(0.0, q - h)) / (hi - lo)
    return math.sqrt(q * (1 - q) / b) / density


class Intervals:
    """Compares fairscore's intervals and p-values with SciPy/NumPy on per-unit counts.

    Tolerance: both sides are Monte-Carlo estimates from unrelated random streams with B
    resamples each. The standard error of a percentile bound is sqrt(q(1-q)/B)/density; for
    B = 10,000 and the bootstrap spreads here (s.d. 0.005-0.05 of F1) it is at most ~0.0015 per
    side, ~0.002 for the difference of two estimates, so 0.01 is about 5 standard errors of the
    widest intervals. A bound fails only when it is off by more than 0.01 *and* by more than 5
    of its own estimated standard errors (a lumpy distribution over a dozen documents can have
    a larger, correctly estimated, s.e.). p-values: s.e. sqrt(p(1-p)(2/B)); fail beyond
    max(0.02, 5 s.e.)."""

    def __init__(self, samples, seed, confidence):
        self.b = samples
        self.conf = confidence
        self.rng = np.random.default_rng(seed + 1)  # not fairscore's stream
        self.worst = {"ci": (0.0, ""), "ci_z": (0.0, ""), "p": (0.0, ""), "p_z": (0.0, "")}
        self.bounds = self.bad_bounds = self.pvals = self.bad_pvals = 0

    def note(self, key, v, where):
        if v > self.worst[key][0]:
            self.worst[key] = (v, where)

    def bootstrap(self, units, statistic):
        """Percentile interval of statistic(summed units) and the bootstrap distribution;
        units: (k, n) array, k counts per unit, resampled together (paired)."""
        data = tuple(units)

        def stat(*xs, axis=-1):
            return statistic(*[np.sum(x, axis=axis) for x in xs])

        kw = dict(n_resamples=self.b, vectorized=True, paired=True, axis=-1,
                  confidence_level=self.conf, method="percentile", batch=500)
        try:
            res = stats.bootstrap(data, stat, rng=self.rng, **kw)
        except TypeError:  # SciPy < 1.15
            res = stats.bootstrap(data, stat, random_state=self.rng, **kw)
        return res.confidence_interval, res.bootstrap_distribution

    def check_ci(self, where, units, statistic, ours):
        (lo, hi), dist = self.bootstrap(units, statistic)
        alpha = (1 - self.conf) / 2
        for theirs, mine, q in ((lo, ours[0], alpha), (hi, ours[1], 1 - alpha)):
            d = abs(float(theirs) - mine)
            se = quantile_se(dist, q) * math.sqrt(2)
            z = d / se if se > 0 else (0.0 if d == 0 else math.inf)
            self.bounds += 1
            self.note("ci", d, where)
            if math.isfinite(z):
                self.note("ci_z", z, where)
            if d > 0.01 and z > 5:
                self.bad_bounds += 1
                print(f"    interval {where}: fairscore {mine:.4f}, SciPy {float(theirs):.4f}")

    def randomization(self, a, b, statistic):
        """Paired approximate randomization (two-sided): each unit's counts change sides with
        probability 1/2; p = (#{|d*| >= |d|} + 1) / (B + 1)."""
        obs = statistic(*a.sum(axis=1)) - statistic(*b.sum(axis=1))
        n, hits, done = a.shape[1], 0, 0
        while done < self.b:
            m = min(1000, self.b - done)
            swap = self.rng.random((m, n)) < 0.5
            xa = np.where(swap[None], b[:, None, :], a[:, None, :]).sum(axis=-1)
            xb = np.where(swap[None], a[:, None, :], b[:, None, :]).sum(axis=-1)
            d = statistic(*xa) - statistic(*xb)
            hits += int(np.count_nonzero(np.abs(d) >= abs(obs) - 1e-12))
            done += m
        return (hits + 1) / (self.b + 1)

    def check_p(self, where, a, b, statistic, ours):
        p = self.randomization(a, b, statistic)
        d = abs(p - ours)
        pm = max(p, ours)
        se = math.sqrt(max(pm * (1 - pm), 1.0 / self.b) * 2 / self.b)
        self.pvals += 1
        self.note("p", d, where)
        self.note("p_z", d / se, where)
        if d > max(0.02, 5 * se):
            self.bad_pvals += 1
            print(f"    p-value {where}: fairscore {ours:.4f}, NumPy {p:.4f}")

    def check_table(self, table, units_of, statistic, label):
        """Interval of every row and p_next/p_top; units_of(system) -> (k, n) array."""
        rows = table["rows"]
        metric = table["metric"]
        arrays = [units_of(r["system"]) for r in rows]
        for i, r in enumerate(rows):
            where = f"{label} {r['system']}"
            self.check_ci(where, arrays[i], statistic, r["ci"][metric])
            if i + 1 < len(rows) and r.get("p_next") is not None:
                self.check_p(f"{where} p_next", arrays[i], arrays[i + 1], statistic, r["p_next"])
            if i >= 2:
                self.check_p(f"{where} p_top", arrays[i], arrays[0], statistic, r["p_top"])


def f1_stat(tp, fp, fn):
    tp, fp, fn = (np.asarray(x, dtype=float) for x in (tp, fp, fn))
    den = 2 * tp + fp + fn
    return np.divide(2 * tp, den, out=np.zeros(np.broadcast(tp, den).shape), where=den > 0)


def muc_f_stat(cor, inc, par, mis, spu):
    cor, inc, par, mis, spu = (np.asarray(x, dtype=float) for x in (cor, inc, par, mis, spu))
    credit = cor + par / 2
    act = cor + inc + par + spu
    pos = cor + inc + par + mis
    p = np.divide(credit, act, out=np.zeros(np.broadcast(credit, act).shape), where=act > 0)
    r = np.divide(credit, pos, out=np.zeros(np.broadcast(credit, pos).shape), where=pos > 0)
    return np.divide(2 * p * r, p + r, out=np.zeros(p.shape), where=(p + r) > 0)


def seg_f1_stat(tp, gold, pred):
    tp, gold, pred = (np.asarray(x, dtype=float) for x in (tp, gold, pred))
    den = gold + pred
    return np.divide(2 * tp, den, out=np.zeros(np.broadcast(tp, den).shape), where=den > 0)


def acc_stat(right, n):
    right, n = np.asarray(right, dtype=float), np.asarray(n, dtype=float)
    return np.divide(right, n, out=np.zeros(np.broadcast(right, n).shape), where=n > 0)


def check_ranks(rep, name, tables, score_of):
    """Every table's ranks follow the independent scores (equal scores share a rank)."""
    good = total = 0
    for t in tables:
        total += 1
        s = {r["system"]: score_of(t, r["system"]) for r in t["rows"]}
        ok = all(r["rank"] == 1 + sum(1 for v in s.values() if v > s[r["system"]] + EPS)
                 for r in t["rows"])
        good += ok
        if not ok:
            ranks = [(r["rank"], r["system"]) for r in t["rows"]]
            rep.detail(f"{name} {t.get('group')}: ranks {ranks}")
    rep.line(f"{name} ranks vs independent scores", good, total, "tables ranked alike")


# ---------------------------------------------------------------------------------------------
# campaigns


def write_campaign(camp, toml):
    if camp.exists():
        shutil.rmtree(camp)
    (camp / "gold").mkdir(parents=True)
    (camp / "runs").mkdir()
    (camp / "campaign.toml").write_text(toml, encoding="utf-8")


NER_TOML = """name = "HIPE-2022 NERC runs as CoNLL"
[[task]]
name = "ner"
family = "spans"
format = "conll"
gold = "{dataset}_{lang}.conll"
runs = "{team}_{bundle}_{dataset}_{lang}_{run}.conll"
regimes = ["strict", "exact", "partial", "ent_type"]
rank_by = "F1"

[[task]]
name = "ner-nv"
family = "spans"
format = "conll"
gold = "{dataset}_{lang}.conll"
runs = "{team}_{bundle}_{dataset}_{lang}_{run}.conll"
regimes = ["strict", "exact", "partial", "ent_type"]
attribution = "nervaluate"
rank_by = "F1"

[[task]]
name = "fair"
family = "fair"
format = "conll"
gold = "{dataset}_{lang}.conll"
runs = "{team}_{bundle}_{dataset}_{lang}_{run}.conll"
rank_by = "F1"

[[task]]
name = "muc"
family = "muc"
format = "conll"
gold = "{dataset}_{lang}.conll"
runs = "{team}_{bundle}_{dataset}_{lang}_{run}.conll"
rank_by = "F"
"""


class NerCampaign:
    """The 31 CoNLL NER runs through spans, fair and muc: one campaign, ranked per dataset and
    language, every number compared with independent code."""

    def __init__(self, rep, args, work):
        self.rep, self.args, self.work = rep, args, work
        self.camp, self.out = work / "ner", work / "ner-out"
        write_campaign(self.camp, NER_TOML)
        paths = {}
        for d in sorted(Path(args.conll).iterdir()):
            if not (d / "run.conll").is_file():
                continue
            team, bundle, dataset, lang, run = d.name.split("_")
            gold = self.camp / "gold" / f"{dataset}_{lang}.conll"
            if not gold.exists():
                shutil.copyfile(d / "gold.conll", gold)
            elif gold.read_bytes() != (d / "gold.conll").read_bytes():
                raise SystemExit(f"campaign_crosscheck: {d}: gold differs from {gold.name}")
            shutil.copyfile(d / "run.conll", self.camp / "runs" / f"{d.name}.conll")
            paths[d.name] = (gold, self.camp / "runs" / f"{d.name}.conll")
        self.board = leaderboard(args.fairscore, self.camp, self.out)
        # Per run: gold and run documents (tag lists) and their entities.
        self.data = {}
        for system, (gpath, rpath) in paths.items():
            gdocs = read_conll(gpath)
            rdocs = cut_like(read_conll(rpath), gdocs)
            self.data[system] = (gdocs, rdocs, [spans(d) for d in gdocs],
                                 [spans(d) for d in rdocs])
        self.n = len(self.data)
        self.per_unit = {}  # system -> (3, documents): strict TP, FP, FN
        self.muc_units = {}  # system -> (5, documents): COR, INC, PAR, MIS, SPU
        self.spec_h = {}  # system -> SPEC_HIPE counts (overall, per label)
        self.nv = {}  # system -> nervaluate's results
        self.hipe_ok = False

    def run(self, task, system):
        """runs/SYSTEM_TASK-GROUP.json of `system` in `task`."""
        for t in tables_of(self.board, task):
            if any(r["system"] == system for r in t["rows"]):
                return run_json(self.out, t, system)
        raise KeyError(f"{system} not ranked in {task}")

    def check_all(self, iv):
        ranked = sorted(r["system"] for t in tables_of(self.board, "ner") for r in t["rows"])
        if ranked != sorted(self.data):
            self.rep.fail("spans", f"ranked {len(ranked)} runs of {self.n}")
        self.check_seqeval()
        self.check_hipe()
        self.check_nervaluate()
        self.check_nervaluate_attribution()
        self.check_fair()
        self.check_muc()
        check_ranks(self.rep, "spans/strict", tables_of(self.board, "ner"),
                    lambda t, s: float(f1_stat(*self.per_unit[s].sum(axis=1))))
        check_ranks(self.rep, "muc", tables_of(self.board, "muc"),
                    lambda t, s: float(muc_f_stat(*self.muc_units[s].sum(axis=1))))
        if iv is not None:
            self.check_intervals(iv)

    def check_seqeval(self):
        """Strict micro and per label against seqeval's default (conlleval) mode."""
        rep, n = self.rep, self.n
        micro_eq = label_r_eq = label_all_eq = 0
        label_diff = []
        zero = {"P": 0.0, "R": 0.0, "F1": 0.0}
        for system, (gdocs, rdocs, gold_e, pred_e) in self.data.items():
            strict = rows_of(self.run("ner", system), "strict")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = classification_report(gdocs, rdocs, output_dict=True, zero_division=0)
            g = {(i,) + e for i, es in enumerate(gold_e) for e in es}
            p = {(i,) + e for i, es in enumerate(pred_e) for e in es}
            tp = len(g & p)
            s, m = strict["ALL"]["scores"], theirs["micro avg"]
            ok = (s["TP"] == tp and s["FP"] == len(p) - tp and s["FN"] == len(g) - tp
                  and close(s["P"], m["precision"]) and close(s["R"], m["recall"])
                  and close(s["F1"], m["f1-score"]))
            micro_eq += ok
            if not ok:
                rep.detail(f"{system}: fairscore strict {s}, seqeval TP {tp} pred {len(p)} "
                           f"gold {len(g)} {m}")
            r_eq, differ = True, 0
            for lab in sorted({e[1] for e in g | p}):
                row = strict[lab]["scores"] if lab in strict else zero
                t = theirs.get(lab, {"precision": 0.0, "recall": 0.0, "f1-score": 0.0})
                r_eq &= close(row["R"], t["recall"])
                differ += not (close(row["P"], t["precision"]) and close(row["R"], t["recall"])
                               and close(row["F1"], t["f1-score"]))
            label_r_eq += r_eq
            label_all_eq += differ == 0
            if differ:
                label_diff.append(f"{system} ({differ} labels)")
            # Per-document strict counts, for the intervals and the fair family.
            units = []
            for ge, pe in zip(gold_e, pred_e):
                k = len(set(ge) & set(pe))
                units.append((k, len(pe) - k, len(ge) - k))
            self.per_unit[system] = np.asarray(units, dtype=float).T
        rep.line("spans/strict micro P/R/F1 and TP/FP/FN vs seqeval", micro_eq, n)
        rep.line("spans/strict per-label R vs seqeval", label_r_eq, n)
        self.label_summary = (label_all_eq, label_diff)

    def check_hipe(self):
        """Every regime, overall and per label, against SPEC_HIPE; then the per-label P
        difference with seqeval is reported as explained by it."""
        rep, n = self.rep, self.n
        equal = 0
        for system, (gdocs, rdocs, gold_e, pred_e) in self.data.items():
            rj = self.run("ner", system)
            tot = {r: collections.Counter() for r in REGIMES}
            per = collections.defaultdict(lambda: {r: collections.Counter() for r in REGIMES})
            for ge, pe in zip(gold_e, pred_e):
                a, b = spec_hipe(ge, pe)
                add_counts(tot, a)
                for lab, c in b.items():
                    add_counts(per[lab], c)
            self.spec_h[system] = (tot, per)
            ok = True
            for reg in REGIMES:
                rows = rows_of(rj, reg)
                ok &= same_as_table(rows["ALL"], tot[reg], reg)
                for lab in (set(rows) - {"ALL"}) | set(per):
                    ok &= lab in rows and same_as_table(rows[lab], per[lab][reg], reg)
            equal += ok
            if not ok:
                rep.detail(f"{system}: fairscore differs from SPEC_HIPE")
        rep.line("spans, all regimes, overall and per label, vs SPEC_HIPE (the HIPE scorer's "
                 "counting, written here)", equal, n)
        self.hipe_ok = equal == n
        same, differ = self.label_summary
        text = (f"spans/strict per-label P/R/F1 vs seqeval: {same}/{n} runs equal, "
                f"{len(differ)} differ")
        if differ and self.hipe_ok:
            rep.info(f"{text} as documented (a predicted entity overlapping a gold entity of "
                     f"another label counts for the gold label, as in the HIPE scorer; seqeval "
                     f"and conlleval count it for its own label; reproduced by SPEC_HIPE): "
                     + ", ".join(differ[:3]) + (" …" if len(differ) > 3 else ""))
        elif differ:
            rep.fail("spans/strict per label", f"{text}, not reproduced by SPEC_HIPE")

    def check_nervaluate(self):
        """Every regime against nervaluate; differences must be those of the specifications."""
        rep, n = self.rep, self.n
        version = nervaluate_version()
        regime_eq, label_eq = collections.Counter(), collections.Counter()
        explained, why_all = collections.Counter(), collections.Counter()
        spec_ok = 0
        for system, (gdocs, rdocs, gold_e, pred_e) in self.data.items():
            labels = sorted({e[0] for es in gold_e + pred_e for e in es})
            res = Evaluator(gdocs, rdocs, tags=labels, loader="list").evaluate()
            self.nv[system] = (labels, res)
            tot = {r: collections.Counter() for r in REGIMES}
            per = {lab: {r: collections.Counter() for r in REGIMES} for lab in labels}
            why = collections.Counter()
            for ge, pe in zip(gold_e, pred_e):
                a, b = spec_nervaluate(ge, pe, labels, why)
                add_counts(tot, a)
                for lab in labels:
                    add_counts(per[lab], b[lab])
            # SPEC_NERVALUATE must give nervaluate's numbers exactly.
            spec_ok += all(same_counts(nv_counter(res["overall"][r]), tot[r])
                           for r in REGIMES) and all(
                lab in res["entities"]
                and same_counts(nv_counter(res["entities"][lab][r]), per[lab][r])
                for lab in labels for r in REGIMES)
            rj = self.run("ner", system)
            htot = self.spec_h[system][0]
            for reg in REGIMES:
                rows = rows_of(rj, reg)
                o, s = res["overall"][reg], rows["ALL"]["scores"]
                eq = (same_as_table(rows["ALL"], nv_counter(o), reg) and close(s["P"], o.precision)
                      and close(s["R"], o.recall) and close(s["F1"], o.f1))
                regime_eq[reg] += eq
                if not eq:
                    # Explained when the two specifications differ the same way.
                    explained[reg] += (same_counts(tot[reg], nv_counter(o))
                                       and same_as_table(rows["ALL"], htot[reg], reg))
                    if reg == "ent_type":
                        why_all.update(why)
                label_eq[reg] += all(
                    lab in rows and lab in res["entities"]
                    and same_as_table(rows[lab], nv_counter(res["entities"][lab][reg]), reg)
                    for lab in labels)
        rep.line(f"SPEC_NERVALUATE vs nervaluate {version} (every regime, overall and per "
                 f"label)", spec_ok, n)
        specs = spec_ok == n and self.hipe_ok
        for reg in REGIMES:
            differ = n - regime_eq[reg]
            if reg == "ent_type" and differ and explained[reg] == differ and specs:
                rep.info(
                    f"spans/ent_type micro vs nervaluate {version}: {regime_eq[reg]}/{n} runs "
                    f"equal, {differ} differ as documented, each reproduced by SPEC_NERVALUATE "
                    f"vs SPEC_HIPE (nervaluate takes the overlapping gold entity of the same "
                    f"label with the closest boundaries, fairscore and the HIPE scorer the first "
                    f"overlapping one); in those runs nervaluate chooses otherwise for "
                    f"{sum(why_all.values())} predicted entities ({why_all['label']}: the first "
                    f"has another label, a later one the same; {why_all['closer']}: a later one "
                    f"of the same label is closer)")
            else:
                rep.line(f"spans/{reg} micro counts and P/R/F1 vs nervaluate {version}",
                         regime_eq[reg], n)
        text = ("spans per-label tables vs nervaluate's \"entities\": "
                + ", ".join(f"{r} {label_eq[r]}/{n}" for r in REGIMES) + " runs equal")
        if specs:
            rep.info(f"{text}; documented difference (nervaluate re-runs each regime on the "
                     f"entities of one label only, so a label confusion is a spurious and a "
                     f"missed entity there), both sides reproduced by the specifications")
        else:
            rep.fail("spans per label vs nervaluate", f"{text}, not reproduced")

    def check_nervaluate_attribution(self):
        """The ner-nv task (spans, attribution = "nervaluate") against nervaluate: every
        regime, overall and for every label nervaluate reports, with no difference."""
        rep, n = self.rep, self.n
        equal = rows = 0
        for system, (labels, res) in self.nv.items():
            tables = {reg: rows_of(self.run("ner-nv", system), reg) for reg in REGIMES}
            wanted = [("ALL", reg, res["overall"][reg]) for reg in REGIMES]
            wanted += [(lab, reg, by[reg]) for lab, by in res["entities"].items() for reg in REGIMES]
            ok = True
            for lab, reg, r in wanted:
                row = tables[reg].get(lab)
                ok = ok and row is not None and same_as_table(row, nv_counter(r), reg)
            equal += ok
            rows += len(wanted)
            if not ok:
                rep.detail(f"ner-nv {system}: differs from nervaluate")
        rep.line(f"spans --attribution nervaluate (task ner-nv) vs nervaluate {nervaluate_version()} "
                 f"(every regime, overall and per label; {rows} rows)", equal, n)

    def check_fair(self):
        """Family fair on the CoNLL runs: traditional counts = seqeval's strict counts."""
        equal = 0
        for system in self.data:
            s = rows_of(self.run("fair", system), "traditional")["ALL"]["scores"]
            tp, fp, fn = self.per_unit[system].sum(axis=1)
            ok = s["TP"] == tp and s["FP"] == fp and s["FN"] == fn
            equal += ok
            if not ok:
                self.rep.detail(f"{system}: fair traditional {s}, seqeval {tp} {fp} {fn}")
        self.rep.line("fair/traditional TP/FP/FN (CoNLL runs) vs seqeval strict", equal, self.n)

    def check_muc(self):
        """Family muc against the token judgement of scripts/muc_crosscheck.py."""
        kinds = ("COR", "INC", "PAR", "MIS", "SPU")
        equal = 0
        for system, (gdocs, rdocs, gold_e, pred_e) in self.data.items():
            rows = rows_of(self.run("muc", system), "muc")
            per_doc = [muc_crosscheck.judge([gd], [rd]) for gd, rd in zip(gdocs, rdocs)]
            per_type = collections.defaultdict(lambda: [0] * 5)
            for d in per_doc:
                for ty, v in d.items():
                    per_type[ty] = [a + b for a, b in zip(per_type[ty], v)]
            units = np.asarray([[sum(d[t][k] for t in d) for k in range(5)] for d in per_doc],
                               dtype=float).T
            self.muc_units[system] = units
            ok = set(rows) - {"ALL", "macro"} == set(per_type)
            for key, v in list(per_type.items()) + [("ALL", list(units.sum(axis=1)))]:
                if key not in rows:
                    ok = False
                    continue
                s = rows[key]["scores"]
                cor, inc, par, mis, spu = v
                act, pos = cor + inc + par + spu, cor + inc + par + mis
                ok &= [s[k] for k in kinds] == list(v) and s["POS"] == pos and s["ACT"] == act
                ok &= close(s["P"], (cor + par / 2) / act if act else 0.0)
                ok &= close(s["R"], (cor + par / 2) / pos if pos else 0.0)
                ok &= close(s["F"], float(muc_f_stat(*v)))
            equal += ok
            if not ok:
                self.rep.detail(f"{system}: muc {rows.get('ALL')} vs {dict(per_type)}")
        self.rep.line("muc COR/INC/PAR/MIS/SPU/POS/ACT and P/R/F per type vs "
                      "scripts/muc_crosscheck.py", equal, self.n)

    def check_intervals(self, iv):
        """The campaign again with --bootstrap: same ranks and scores; intervals and p-values
        of spans (strict F1) and muc (F) over documents."""
        board = leaderboard(self.args.fairscore, self.camp, self.work / "ner-out-bootstrap",
                            self.args.bootstrap, self.args.seed)
        same = rows = 0
        for t0, t1 in zip(self.board["tables"], board["tables"]):
            for r0, r1 in zip(t0["rows"], t1["rows"]):
                rows += 1
                same += (r0["system"], r0["rank"], r0["scores"]) == (
                    r1["system"], r1["rank"], r1["scores"])
        self.rep.line("NER campaign with --bootstrap: ranks and scores as without", same, rows,
                      "rows equal")
        for task, units, stat, name in (("ner", self.per_unit, f1_stat, "spans/strict F1"),
                                        ("muc", self.muc_units, muc_f_stat, "muc F")):
            for t in tables_of(board, task):
                if t["unit"] != "document":
                    self.rep.fail("intervals", f"{task}: unit {t['unit']}, not document")
                iv.check_table(t, units.__getitem__, stat, name)


# ---------------------------------------------------------------------------------------------
# FairEval reference


def read_sections(path):
    """Sections of a FairEval result file: title -> {first cell: {column: cell}}."""
    out, lines = {}, open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("### "):
            title = lines[i][4:].rstrip(":")
            i += 1
            if i >= len(lines) or "\t" not in lines[i]:
                continue
            cols = lines[i].split("\t")
            table = {}
            i += 1
            while i < len(lines) and lines[i].strip():
                cells = lines[i].split("\t")
                table[cells[0]] = dict(zip(cols[1:], cells[1:]))
                i += 1
            out[title] = table
        else:
            i += 1
    return out


def read_config(path):
    cfg = {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            k, v = line.split("=", 1)
            cfg[k.strip()] = v.strip()
    return cfg


def faireval_campaign(rep, args, work):
    src = Path(args.shared) / "data" / "faireval" / "ner"
    cfg = read_config(src / "ner.config")
    extra = f'weights = "{cfg["weights"]}"\nfocus = "{cfg.get("focus", "target")}"\n'
    # ner.config's options, as the CLI takes them (comma-separated lists).
    if cfg.get("exclude"):
        extra += f'exclude = "{cfg["exclude"]}"\n'
    if cfg.get("labels", "all") != "all":
        extra += f'labels = "{cfg["labels"]}"\n'
    toml = ('name = "GermEval 2014 (FairEval)"\n[[task]]\nname = "fair"\nfamily = "fair"\n'
            'format = "spans"\ngold = "germeval2014-test.csv"\nruns = "{team}_{run}.csv"\n'
            'rank_by = "F1"\n' + extra)
    camp = work / "faireval"
    write_campaign(camp, toml)
    shutil.copyfile(src / "target_ner_spans.csv", camp / "gold" / "germeval2014-test.csv")
    shutil.copyfile(src / "system_ner_spans.csv", camp / "runs" / "stanza_1.csv")
    out = work / "faireval-out"
    board = leaderboard(args.fairscore, camp, out)
    t = board["tables"][0]
    row = t["rows"][0]
    rj = run_json(out, t, row["system"])
    exp = read_sections(src / "expected_eval_ner.csv")
    checked = equal = 0
    bad = []

    def cmp(kind, label, col, got, want, pct):
        nonlocal checked, equal
        checked += 1
        ok = (abs(got * 100 - float(want)) <= 0.005 + 1e-9) if pct else (got == int(want))
        equal += ok
        if not ok:
            bad.append(f"{kind} {label} {col}: fairscore {got}, reference {want}")

    names = {"Prec": ("P", True), "Rec": ("R", True), "F1": ("F1", True)}
    for kind, title, cols in (
            ("traditional", "Traditional evaluation", ("TP", "FP", "FN", "Prec", "Rec", "F1")),
            ("fair", "Fair evaluation", ("TP", "FP", "LE", "BE", "LBE", "FN", "Prec", "Rec", "F1")),
            ("weighted", "Weighted evaluation", ("Prec", "Rec", "F1"))):
        rows = rows_of(rj, kind)
        for label, cells in exp[title].items():
            key = "ALL" if label == "overall" else label
            for col in cols:
                name, pct = names.get(col, (col, False))
                cmp(kind, label, col, rows[key]["scores"][name], cells[col], pct)
    # The weighted counts of the reference (LE, BES, BEL, BEO, LBE) weigh into the weighted
    # table's TP/FP/FN: check them through the weights of ner.config.
    w = {"LE": (0, .5, .5), "BES": (.5, 0, .5), "BEL": (.5, .5, 0), "BEO": (.5, .25, .25),
         "LBE": (0, .5, .5)}
    rows = rows_of(rj, "weighted")
    for label, cells in exp["Weighted evaluation"].items():
        key = "ALL" if label == "overall" else label
        tp = int(cells["TP"]) + sum(int(cells[k]) * w[k][0] for k in w)
        fp = int(cells["FP"]) + sum(int(cells[k]) * w[k][1] for k in w)
        fn = int(cells["FN"]) + sum(int(cells[k]) * w[k][2] for k in w)
        # The weighted sums (wTP, wFP, wFN) and, beside them, the raw count of every category.
        for col, v in (("wTP", tp), ("wFP", fp), ("wFN", fn)):
            checked += 1
            ok = close(rows[key]["scores"][col], v)
            equal += ok
            if not ok:
                bad.append(f"weighted {label} {col}: fairscore {rows[key]['scores'][col]}, "
                           f"reference {v}")
        for col in ("TP", "FP", "FN", *w):
            cmp("weighted", label, col, rows[key]["scores"][col], cells[col], False)
    checked += 1
    ranked = close(row["scores"]["F1"], rows_of(rj, "fair")["ALL"]["scores"]["F1"])
    equal += ranked
    for b in bad:
        rep.detail(b)
    rep.line("fair vs the FairEval reference result (GermEval 2014, Stanza; traditional, fair "
             "and weighted tables, every label)", equal, checked, "numbers equal")


# ---------------------------------------------------------------------------------------------
# UD: segmentation and tagging against conll18_ud_eval.py


def load_conll18(shared):
    path = Path(shared) / "data" / "peers" / "conll18" / "conll18_ud_eval.py"
    spec = importlib.util.spec_from_file_location("conll18_ud_eval", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def conllu_sentences(path, column=None):
    """Sentences of a CoNLL-U file: lists of (FORM, cell of `column`) of the syntactic words."""
    cols = {"UPOS": 3, "XPOS": 4}
    out, cur = [], []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line:
            if cur:
                out.append(cur)
            cur = []
            continue
        if line.startswith("#"):
            continue
        cells = line.split("\t")
        if not cells[0].isdigit():
            continue
        cur.append((cells[1], cells[cols[column]] if column else None))
    if cur:
        out.append(cur)
    return out


def char_spans(words):
    out, k = set(), 0
    for w in words:
        out.add((k, k + len(w)))
        k += len(w)
    return out


def ud_campaign(rep, args, work, iv, conll18):
    ud = Path(args.shared) / "data" / "ud"
    seg, tag = ud / "segmentation", ud / "tagging"

    # --- segmentation
    toml = ('name = "UD Chinese-GSD dev segmentation"\n'
            '[[task]]\nname = "seg"\nfamily = "segmentation"\nformat = "text"\n'
            'gold = "zh_gsd-ud-dev.txt"\nruns = "{team}_{run}.txt"\nrank_by = "F1"\n\n'
            '[[task]]\nname = "segu"\nfamily = "segmentation"\nformat = "conllu"\n'
            'gold = "zh_gsd-ud-dev.conllu"\nruns = "{team}_{run}.conllu"\nrank_by = "F1"\n')
    camp = work / "segmentation"
    write_campaign(camp, toml)
    for f in ("zh_gsd-ud-dev.txt", "zh_gsd-ud-dev.conllu"):
        shutil.copyfile(seg / f, camp / "gold" / f)
    tools = ("jieba", "thulac")
    for tool in tools:
        for ext in ("txt", "conllu"):
            shutil.copyfile(seg / f"{tool}-dev.{ext}", camp / "runs" / f"{tool}_1.{ext}")
    out = work / "segmentation-out"
    board = leaderboard(args.fairscore, camp, out)
    gold_ud = conll18.load_conllu_file(str(seg / "zh_gsd-ud-dev.conllu"))
    gold_s = [[w for w, _ in s] for s in conllu_sentences(seg / "zh_gsd-ud-dev.conllu")]
    seg_units = {}
    equal = total = 0
    for tool in tools:
        ev = conll18.evaluate(gold_ud, conll18.load_conllu_file(str(seg / f"{tool}-dev.conllu")))
        words = ev["Words"]
        text = open(seg / f"{tool}-dev.txt", encoding="utf-8").read().splitlines()
        run_s = {"txt": [line.split() for line in text],
                 "conllu": [[w for w, _ in s]
                            for s in conllu_sentences(seg / f"{tool}-dev.conllu")]}
        for task, ext in (("seg", "txt"), ("segu", "conllu")):
            t = tables_of(board, task)[0]
            system = f"{tool}_1"
            rows = rows_of(run_json(out, t, system), "segmentation")
            s = rows["words"]["scores"]
            ranked = next(r for r in t["rows"] if r["system"] == system)["scores"]
            total += 1
            # Per-sentence counts (character spans), which must add up to conll18's.
            units = []
            for gw, pw in zip(gold_s, run_s[ext]):
                gs, ps = char_spans(gw), char_spans(pw)
                units.append((len(gs & ps), len(gs), len(ps)))
            u = np.asarray(units, dtype=float).T
            seg_units[(task, system)] = u
            ok = (s["TP"] == words.correct and s["gold"] == words.gold_total
                  and s["pred"] == words.system_total and close(s["P"], words.precision)
                  and close(s["R"], words.recall) and close(s["F1"], words.f1)
                  and close(ranked["F1"], words.f1)
                  and tuple(u.sum(axis=1)) == (words.correct, words.gold_total,
                                               words.system_total))
            equal += ok
            if not ok:
                rep.detail(f"{task} {system}: fairscore {s}, conll18 Words {words.correct} "
                           f"{words.gold_total} {words.system_total} {words.f1}")
            else:
                rep.detail(f"{task} {system}: Words P {100 * words.precision:.2f} "
                           f"R {100 * words.recall:.2f} F1 {100 * words.f1:.2f}")
    rep.line("segmentation words TP/gold/pred and P/R/F1 (text and CoNLL-U runs) vs "
             "conll18_ud_eval.py Words", equal, total)

    # --- tagging
    toml = ('name = "UD Polish-PDB dev tagging"\n'
            '[[task]]\nname = "xpos"\nfamily = "tagging"\nformat = "conllu"\ncolumn = "XPOS"\n'
            'tagset = "nkjp"\ngold = "pl_pdb-ud-dev.conllu"\nruns = "{team}_{run}.conllu"\n'
            'rank_by = "F1"\n\n'
            '[[task]]\nname = "upos"\nfamily = "tagging"\nformat = "conllu"\ncolumn = "UPOS"\n'
            'gold = "pl_pdb-ud-dev.conllu"\nruns = "{team}_{run}.conllu"\nrank_by = "F1"\n')
    tcamp = work / "tagging"
    write_campaign(tcamp, toml)
    shutil.copyfile(tag / "pl_pdb-ud-dev.conllu", tcamp / "gold" / "pl_pdb-ud-dev.conllu")
    taggers = {"morfeusz_first": "morfeusz-first-dev.conllu", "freq_1": "freq-dev.conllu"}
    for system, f in taggers.items():
        shutil.copyfile(tag / f, tcamp / "runs" / f"{system}.conllu")
    tout = work / "tagging-out"
    tboard = leaderboard(args.fairscore, tcamp, tout)
    gold_ud = conll18.load_conllu_file(str(tag / "pl_pdb-ud-dev.conllu"))
    tag_units = {}
    equal = total = 0
    for system, f in taggers.items():
        ev = conll18.evaluate(gold_ud, conll18.load_conllu_file(str(tag / f)))
        for task, col in (("xpos", "XPOS"), ("upos", "UPOS")):
            t = tables_of(tboard, task)[0]
            rows = rows_of(run_json(tout, t, system), "tagging")
            s = rows["exact"]["scores"]
            ranked = next(r for r in t["rows"] if r["system"] == system)["scores"]
            acc = ev[col].f1  # gold tokenization: P = R = F1 = aligned accuracy
            gsent = conllu_sentences(tag / "pl_pdb-ud-dev.conllu", col)
            rsent = conllu_sentences(tag / f, col)
            units = [(sum(a[1] == b[1] for a, b in zip(g, r)), len(g))
                     for g, r in zip(gsent, rsent)]
            u = np.asarray(units, dtype=float).T
            tag_units[(task, system)] = u
            total += 1
            ok = (close(s["F1"], acc) and close(s["P"], acc) and close(s["R"], acc)
                  and close(ranked["F1"], acc) and close(ev[col].aligned_accuracy, acc)
                  and u[0].sum() == ev[col].correct and u[1].sum() == ev[col].gold_total)
            equal += ok
            if not ok:
                rep.detail(f"{task} {system}: fairscore exact {s}, conll18 {col} {acc}")
            else:
                rep.detail(f"{task} {system}: {col} accuracy {100 * acc:.2f}")
    rep.line("tagging exact-row accuracy (XPOS with tag set nkjp, UPOS) vs conll18_ud_eval.py "
             "XPOS/UPOS", equal, total)

    if iv is not None:
        for camp_, out_, name in ((camp, work / "segmentation-out-bootstrap", "segmentation"),
                                  (tcamp, work / "tagging-out-bootstrap", "tagging")):
            b = leaderboard(args.fairscore, camp_, out_, args.bootstrap, args.seed)
            for t in b["tables"]:
                if t["unit"] != "sentence":
                    rep.fail("intervals", f"{name} unit {t['unit']}")
                if name == "segmentation":
                    iv.check_table(t, lambda s, t=t: seg_units[(t["task"], s)], seg_f1_stat,
                                   f"{t['task']} F1")
                else:
                    iv.check_table(t, lambda s, t=t: tag_units[(t["task"], s)], acc_stat,
                                   f"{t['task']} accuracy")


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fairscore", required=True, help="the fairscore binary")
    ap.add_argument("--shared", required=True, help="../shared")
    ap.add_argument("--conll", required=True,
                    help="the conll_parity directory ($CARGO_TARGET_DIR/tmp/conll_parity)")
    ap.add_argument("--workdir", required=True, help="where the campaigns are built")
    ap.add_argument("--bootstrap", type=int, default=10000, help="0: no interval checks")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--confidence", type=float, default=0.95)
    args = ap.parse_args()
    if not nervaluate_version().startswith("1."):
        # SPEC_NERVALUATE describes the 1.x rewrite (0.x counts otherwise).
        print(f"campaign_crosscheck: nervaluate {nervaluate_version()} is not 1.x")
        return 1
    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    rep = Report()
    iv = Intervals(args.bootstrap, args.seed, args.confidence) if args.bootstrap else None
    conll18 = load_conll18(args.shared)
    NerCampaign(rep, args, work).check_all(iv)
    faireval_campaign(rep, args, work)
    ud_campaign(rep, args, work, iv, conll18)
    if iv is not None:
        w = iv.worst
        rep.line(f"intervals vs scipy.stats.bootstrap(method='percentile'), {args.bootstrap} "
                 f"resamples each side", iv.bounds - iv.bad_bounds, iv.bounds,
                 "bounds within Monte-Carlo error",
                 f"largest difference {w['ci'][0]:.4f} ({w['ci'][1]}), largest "
                 f"{w['ci_z'][0]:.1f} s.e. ({w['ci_z'][1]})")
        rep.line("p_next/p_top vs NumPy paired approximate randomization",
                 iv.pvals - iv.bad_pvals, iv.pvals, "p-values within Monte-Carlo error",
                 f"largest difference {w['p'][0]:.4f} ({w['p'][1]}), largest "
                 f"{w['p_z'][0]:.1f} s.e.")
    if rep.failed:
        print(f"campaign_crosscheck: FAILED: {', '.join(rep.failed)}")
        return 1
    print("campaign_crosscheck: every number agrees or differs only as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
