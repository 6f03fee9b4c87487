"""Cross-checks the pairwise F1 agreement of `fairscore agree --project` against the real
bratiaa 0.1.4 on brat projects generated here from a fixed seed.

Usage: bratiaa_crosscheck.py FAIRSCORE WORKDIR [--seed N] [--projects N] [--avoid-known]
       [--max-lines N] [--verbose]

For each generated project (bratiaa's layout: DIR/annotation.conf declaring the entity types,
one sub-folder per annotator, every annotator with the same .txt/.ann pairs, some in nested
sub-folders), bratiaa is run through its API exactly as its CLI `brat-iaa` does
(`compute_f1_agreement(root)` for instance-based agreement, `compute_f1_agreement(root,
token_func=bratiaa.utils.tokenize)` for `brat-iaa -t`, then `mean_sd_per_document`,
`mean_sd_per_label` and `mean_sd_total`, the three tables of `iaa_report`), and fairscore as
`fairscore agree --project DIR --json -`. Compared, within 1e-9:
- the mean and SD F1 of every document (`instance-documents`, `token-documents`), every label
  and ALL (`instance-labels`, `token-labels`): the "numbers compared";
- and, as extra checks: the `pairs` column (the number of pairs whose F1 is defined) and, in
  `instance-pairs`/`token-pairs`, each pair's TP, 2TP + FP + FN and F1 against bratiaa's
  per-pair counts (`F1Agreement._pdcl`, summed over documents and labels).
Where bratiaa gives NaN (some pair's F1 is 0/0), docs/agreement.md ("Undefined F1") says
fairscore leaves the undefined pairs out: the expected mean and SD are then recomputed here
with NumPy from bratiaa's own per-pair F1 (`_pdcl`, the array its `mean_sd_*` methods average)
over the defined pairs only, and `null` is expected when no pair is defined. Those cells are
counted separately ("undefined cases"). Rows where bratiaa is a number are checked to be
recomputed identically from `_pdcl`, so the per-pair reading is bratiaa's own.

What the generator varies: 2-5 annotators, 1-8 documents, 1-5 labels (sometimes one more
declared but never used, sometimes in a brat type hierarchy with `!` abstract parents);
texts with accents, combining marks, CJK, Hangul, Cyrillic, Arabic, emoji (also ZWJ
sequences), runs of spaces, tabs, newlines, CRLF, no-break and ideographic spaces,
U+2028, U+0085 and U+001F (whitespace for Python, hence for bratiaa's `\\S+` tokenizer),
U+200B and U+FEFF (not whitespace), a leading byte-order mark; spans that coincide, overlap,
nest, differ in boundaries (ending or starting mid-token or inside a whitespace run), differ in
label, lie entirely inside whitespace (no token: token F1 undefined while instance F1 is not),
discontinuous spans (fragments in ascending order, sometimes two fragments inside one token),
documents where an annotator or everybody has no span, empty and whitespace-only documents,
and R, A, N, #, * lines (which must not count), CRLF .ann files.

bratiaa quirks the generator avoids (each a comment where it matters below):
- bratiaa keeps only the documents every annotator has, and its intersection restarts when
  it becomes empty (`if not intersection:` in `collect_redundant_files`); fairscore documents
  another rule for partial documents (pairs count the documents both annotated). So every
  annotator gets every document.
- a span in a text without any token (empty or whitespace-only) crashes bratiaa's
  `TokenOverlap` (IndexError on `tokens[0]`): such texts get no spans.
- a label not declared in annotation.conf raises KeyError in bratiaa: every label used is
  declared.
- event (E) lines: bratiaa counts their triggers as text-bound spans (and fails on their
  undeclared types) while fairscore drops them; not generated.
- a byte-order mark at the start of an .ann file is read by bratiaa as part of the first id
  (the line is lost); only .txt files get one.

Known differences, found by this script and since fixed in fairscore (the generator still
makes them, so they stay checked; --avoid-known leaves them out):
- the same span (label and fragments) entered twice under two ids (it also happens by itself
  when two perturbed spans meet): bratiaa's token-based evaluation iterates over `set(spans)`
  and counts it once (instance-based: both once);
- a zero-width span (start == end) strictly inside a token: bratiaa's `overlapping_tokens`
  gives no token when `start >= end`;
- `[spans]`, brat's alias of `[entities]`, in annotation.conf;
- an entity line `TERM|ALIAS|...` (no space: with one, brat rejects the whole file and falls
  back to its minimal default): the label is TERM.
"""
import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import time

import numpy as np
from bratiaa import compute_f1_agreement
from bratiaa.agree import compute_f1
from bratiaa.utils import tokenize

TOL = 1e-9

WORDS = [
    "Anna", "met", "Bob", "in", "Paris", "on", "Monday", "the", "of", "and", "a", "Grenoble",
    "(Francia)", "Dr.", "Smith-Jones", "U.S.A.", "42", "3,14", "café", "naïve", "Zürich", "São",
    "Paulo", "Øresund", "Ærø", "Łódź", "e\u0301te\u0301", "東京", "北京大学", "の", "서울",
    "Москва", "Санкт-Петербург", "القاهرة", "😀", "👩\u200d🔬", "🇫🇷", "«quote»", "—", "x",
    "zero\u200bwidth", "nob\ufeffom", "ẞtraße", "ǅemal",
]
# Separators, with weights: mostly one space.
SEPS = [
    (" ", 40), ("  ", 5), ("   ", 2), ("\n", 6), ("\n\n", 3), ("\t", 2), (" \n ", 2),
    ("\u00a0", 2), ("\u3000", 2), ("\u2028", 1), ("\u0085", 1), ("\x1f", 1), ("\x0b\x0c", 1),
    (" \u2003 ", 1),
]
LABEL_POOL = ["PER", "LOC", "ORG", "MISC", "DATE", "Time_x", "geo-pol", "X1"]
ANNOTATOR_POOL = ["anna", "ben", "chloé", "dmitri", "eve", "fatma", "gus_2", "Zoë", "李"]
DOC_STEMS = ["doc", "text", "été", "news 04", "a"]


def py_space(c):
    return c.isspace()


def tokens_of(text):
    return list(tokenize(text))


class Stats:
    def __init__(self):
        self.c = {}

    def add(self, k, n=1):
        self.c[k] = self.c.get(k, 0) + n


def make_text(rng, crlf):
    if rng.random() < 0.04:
        return ""
    if rng.random() < 0.04:
        return rng.choice([" ", "\n", "  \n\t", "\u3000 "])  # whitespace only: no token
    n = rng.randint(3, 40)
    parts = []
    if rng.random() < 0.1:
        parts.append("\ufeff")  # a byte-order mark is a character for Python and bratiaa
    if rng.random() < 0.15:
        parts.append(rng.choice([" ", "\n", "  "]))
    seps, weights = zip(*SEPS)
    for i in range(n):
        parts.append(rng.choice(WORDS))
        if i < n - 1:
            parts.append(rng.choices(seps, weights)[0])
    if rng.random() < 0.3:
        parts.append(rng.choice(["\n", " ", "  \n"]))
    text = "".join(parts)
    if crlf:
        text = text.replace("\n", "\r\n")
    return text


def whitespace_runs(text):
    runs, i = [], 0
    while i < len(text):
        if py_space(text[i]):
            j = i
            while j < len(text) and py_space(text[j]):
                j += 1
            runs.append((i, j))
            i = j
        else:
            i += 1
    return runs


def clamp(x, lo, hi):
    return max(lo, min(hi, x))


def reference_spans(rng, text, labels, st, opts):
    """Candidate spans of one document: (label, [(start, end), ...])."""
    toks = tokens_of(text)
    if not toks:
        return []  # bratiaa crashes on a span in a text without tokens
    out = []
    for _ in range(rng.randint(0, min(8, len(toks)))):
        r = rng.random()
        lab = rng.choice(labels)
        i = rng.randrange(len(toks))
        if r < 0.55:  # whole tokens
            j = min(len(toks) - 1, i + rng.choice([0, 0, 0, 1, 1, 2]))
            out.append((lab, [(toks[i][0], toks[j][1])]))
        elif r < 0.72:  # any characters: may start or end mid-token or in whitespace
            s = rng.randrange(len(text))
            e = clamp(s + rng.randint(1, 12), s + 1, len(text))
            out.append((lab, [(s, e)]))
            st.add("span at arbitrary characters")
        elif r < 0.84:  # discontinuous: two fragments, in ascending order
            if toks[i][1] - toks[i][0] >= 4 and rng.random() < 0.3:
                s, e = toks[i]  # two fragments inside one token: the token counts twice
                out.append((lab, [(s, s + 1), (s + 2, e)]))
                st.add("discontinuous span inside one token")
            elif i + 2 < len(toks):
                j = rng.randint(i + 2, min(len(toks) - 1, i + 5))
                out.append((lab, [toks[i], toks[j]]))
                st.add("discontinuous span")
            elif toks[i][1] - toks[i][0] >= 4:
                s, e = toks[i]  # two fragments inside one token: the token counts twice
                out.append((lab, [(s, s + 1), (s + 2, e)]))
                st.add("discontinuous span inside one token")
        elif r < 0.92:  # entirely inside a whitespace run: overlaps no token
            runs = [x for x in whitespace_runs(text) if x[1] - x[0] >= 2]
            if runs:
                s, e = rng.choice(runs)
                a = rng.randrange(s, e - 1)
                out.append((lab, [(a, rng.randint(a + 1, e))]))
                st.add("span inside whitespace")
        elif not opts.avoid_known:
            s, e = toks[i]
            if e - s >= 2:
                p = rng.randint(s + 1, e - 1)
                out.append((lab, [(p, p)]))
                st.add("zero-width span")
    return out


def perturb(rng, span, text, labels, st):
    """One annotator's version of a reference span (None: not annotated)."""
    lab, frags = span
    r = rng.random()
    n = len(text)
    if r < 0.55:
        return (lab, list(frags))
    if r < 0.67:
        st.add("span left out by an annotator")
        return None
    if r < 0.79 and len(labels) > 1:
        st.add("label differs")
        return (rng.choice([l for l in labels if l != lab]), list(frags))
    if len(frags) > 1:
        st.add("discontinuous made continuous")
        return (lab, [(frags[0][0], frags[-1][1])])
    s, e = frags[0]
    if s == e:
        return (lab, [(s, e)])
    for _ in range(10):
        s2 = clamp(s + rng.randint(-4, 4), 0, n)
        e2 = clamp(e + rng.randint(-4, 4), 0, n)
        if s2 < e2 and (s2, e2) != (s, e):
            st.add("boundaries differ")
            return (lab, [(s2, e2)])
    return (lab, [(s, e)])


def extra_spans(rng, spans, text, labels, st):
    """Nested or overlapping spans some annotators add."""
    out = []
    toks = tokens_of(text)
    for lab, frags in spans:
        if len(frags) != 1 or rng.random() > 0.2:
            continue
        s, e = frags[0]
        if e - s >= 2 and rng.random() < 0.5:
            a = rng.randint(s, e - 1)
            b = rng.randint(a + 1, e)
            if (a, b) != (s, e):
                out.append((rng.choice(labels), [(a, b)]))
                st.add("nested span")
        else:
            later = [t for t in toks if t[0] >= e]
            if later and s < e - 1:
                t = rng.choice(later[:3])
                out.append((rng.choice(labels), [(rng.randint(s + 1, e - 1), t[1])]))
                st.add("overlapping span")
    return out


def ann_text(text, frags):
    # brat joins the fragments' text with a space; a line break would end the .ann line.
    covered = " ".join(text[s:e] for s, e in frags)
    return covered.replace("\r", " ").replace("\n", " ")


def write_ann(rng, path, text, spans, st, opts, known):
    lines, tids = [], []
    spans = list(spans)
    if opts.avoid_known:
        # the same span twice (it happens on its own too: two perturbed spans that meet)
        spans = list(dict.fromkeys((lab, tuple(fr)) for lab, fr in spans))
    elif spans and rng.random() < 0.1:
        spans.append(rng.choice(spans))  # the same span under a second id
        st.add("span entered twice")
    if len(set((lab, tuple(fr)) for lab, fr in spans)) < len(spans):
        known.add("span entered twice")
    if any(s == e for _, fr in spans for s, e in fr):
        known.add("zero-width span")
    rng.shuffle(spans)
    for k, (lab, frags) in enumerate(spans, 1):
        tid = f"T{k}"
        tids.append(tid)
        offs = ";".join(f"{s} {e}" for s, e in frags)
        lines.append(f"{tid}\t{lab} {offs}\t{ann_text(text, frags)}")
    # Lines that are not entities and must not count.
    if tids:
        if len(tids) >= 2 and rng.random() < 0.5:
            a, b = rng.sample(tids, 2)
            lines.append(f"R1\tRel_x Arg1:{a} Arg2:{b}\t")
            st.add("R line")
        if rng.random() < 0.4:
            lines.append(f"A1\tNegated {rng.choice(tids)}")
            lines.append(f"A2\tLevel {rng.choice(tids)} High")
            st.add("A line")
        if rng.random() < 0.4:
            lines.append(f"#1\tAnnotatorNotes {rng.choice(tids)}\tunsure: 東京? café…")
            st.add("# line")
        if rng.random() < 0.2:
            lines.append(f"N1\tReference {rng.choice(tids)} Wikidata:Q90\tParis")
            st.add("N line")
        if len(tids) >= 2 and rng.random() < 0.2:
            lines.append(f"*\tEquiv {tids[0]} {tids[1]}")
            st.add("* line")
    nl = "\r\n" if rng.random() < 0.1 else "\n"
    body = nl.join(lines) + (nl if lines and rng.random() < 0.8 else "")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(body)


def write_conf(rng, root, labels, st, opts, known):
    declared = list(labels)
    if rng.random() < 0.3:
        unused = [l for l in LABEL_POOL if l not in labels]
        declared.append(rng.choice(unused))  # declared, never used: every pair undefined
        st.add("declared unused label")
    section = "[entities]"
    if not opts.avoid_known and rng.random() < 0.08:
        section = "[spans]"  # brat's alias of [entities]
        known.add("[spans] section in annotation.conf")
    lines = ["# generated by scripts/bratiaa_crosscheck.py", section]
    if not opts.avoid_known and rng.random() < 0.08:
        # brat's `TERM|ALIAS…` syntax: the storage form (the label in .ann files) is the first
        declared[0] += "|" + declared[0].lower() + "|OtherName"  # no space: a space makes brat drop the whole file for its minimal default
        known.add("TERM|ALIAS in annotation.conf")
    if len(declared) >= 3 and rng.random() < 0.3:
        # a brat type hierarchy: indented children under an (abstract) parent
        parent, children = declared[0], declared[1:3]
        lines.append(("!" if rng.random() < 0.5 else "") + parent)
        lines.extend("\t" + c for c in children)
        lines.extend(declared[3:])
        st.add("type hierarchy in annotation.conf")
    else:
        lines.extend(declared)
    lines += ["", "[relations]", "Rel_x\tArg1:<ENTITY>, Arg2:<ENTITY>", "<OVERLAP>\tArg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>",
              "", "[events]", "", "[attributes]", "Negated\tArg:<ENTITY>",
              "Level\tArg:<ENTITY>, Value:Low|High", ""]
    nl = "\r\n" if rng.random() < 0.15 else "\n"
    with open(os.path.join(root, "annotation.conf"), "w", encoding="utf-8", newline="") as f:
        f.write(nl.join(lines))


def generate(rng, root, st, opts):
    """Writes one project; returns its annotators, labels and the known differences it has."""
    os.makedirs(root)
    known = set()
    annotators = rng.sample(ANNOTATOR_POOL, rng.randint(2, 5))
    labels = rng.sample(LABEL_POOL, rng.randint(1, 5))
    write_conf(rng, root, labels, st, opts, known)
    if rng.random() < 0.3:
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write("not an annotator\n")
    n_docs = rng.randint(1, 8)
    names = set()
    while len(names) < n_docs:
        stem = f"{rng.choice(DOC_STEMS)}{rng.randint(1, 99)}"
        r = rng.random()
        if r < 0.2:
            stem = f"part{rng.randint(1, 2)}/{stem}"
        elif r < 0.3:
            stem = f"deep/er/{stem}"
        names.add(stem)
    for name in sorted(names):
        text = make_text(rng, crlf=rng.random() < 0.15)
        ref = reference_spans(rng, text, labels, st, opts)
        everyone_silent = rng.random() < 0.08
        if everyone_silent:
            st.add("document without any span")
        for a in annotators:
            spans = []
            if not everyone_silent and rng.random() >= 0.12:
                for s in ref:
                    p = perturb(rng, s, text, labels, st)
                    if p:
                        spans.append(p)
                if tokens_of(text):
                    spans += extra_spans(rng, spans, text, labels, st)
            elif not everyone_silent:
                st.add("annotator without span in a document")
            # every annotator gets every document (see the docstring: bratiaa's intersection)
            base = os.path.join(root, a, name)
            os.makedirs(os.path.dirname(base), exist_ok=True)
            with open(base + ".txt", "w", encoding="utf-8", newline="") as f:
                f.write(text)
            write_ann(rng, base + ".ann", text, spans, st, opts, known)
    return annotators, labels, known


# ---------------------------------------------------------------------------------------

def fairscore_tables(fairscore, root):
    p = subprocess.run([fairscore, "agree", "--project", root, "--json", "-"], capture_output=True)
    if p.returncode != 0:
        raise RuntimeError(f"fairscore failed on {root}: {p.stderr.decode(errors='replace')}")
    return {t["name"]: t for t in json.loads(p.stdout)["tables"]}


def rows_by(table, key):
    return {r["key"][key]: r["scores"] for r in table["rows"]}


class Checker:
    def __init__(self):
        self.numbers = 0  # means and SDs compared
        self.extra = 0  # pairs counts and per-pair counts/F1 compared
        self.undefined_partial = 0  # bratiaa NaN, some pairs defined: mean over those
        self.undefined_all = 0  # bratiaa NaN, no pair defined: fairscore null
        self.numbers_bad = 0  # means and SDs that differ
        self.mismatches = []

    def bad(self, project, table, row, what, want, got):
        self.mismatches.append((project, table, row, what, want, got))
        if what.startswith("mean") or what.startswith("SD"):
            self.numbers_bad += 2 if what.startswith("mean/SD") else 1

    @staticmethod
    def close(a, b):
        return b is not None and not (isinstance(b, float) and math.isnan(b)) and abs(a - b) <= TOL

    def summary_row(self, project, table, row, brat_mean, brat_sd, f1_pairs, got):
        """One row of a documents/labels table: bratiaa's mean and SD, its per-pair F1 (the
        values it averaged), fairscore's scores."""
        if got is None:
            self.bad(project, table, row, "row", "present", "missing")
            self.numbers += 2
            self.numbers_bad += 2
            return
        defined = f1_pairs[~np.isnan(f1_pairs)]
        g_mean, g_sd, g_pairs = got.get("mean F1"), got.get("SD F1"), got.get("pairs")
        self.extra += 1
        if g_pairs != len(defined):
            self.bad(project, table, row, "pairs", len(defined), g_pairs)
        if not math.isnan(brat_mean):
            # our reading of bratiaa's per-pair F1 must give bratiaa's own numbers
            assert len(defined) == len(f1_pairs)
            # (1-D and axis-0 reductions may sum in another order: an ulp or so)
            assert abs(np.mean(f1_pairs) - brat_mean) <= 1e-12, (project, table, row)
            assert abs(np.std(f1_pairs) - brat_sd) <= 1e-12, (project, table, row)
            self.numbers += 2
            if not self.close(brat_mean, g_mean):
                self.bad(project, table, row, "mean F1", brat_mean, g_mean)
            if not self.close(brat_sd, g_sd):
                self.bad(project, table, row, "SD F1", brat_sd, g_sd)
        elif len(defined):
            # documented rule: the undefined pairs are left out
            self.undefined_partial += 1
            self.numbers += 2
            want_mean, want_sd = float(np.mean(defined)), float(np.std(defined))
            if not self.close(want_mean, g_mean):
                self.bad(project, table, row, "mean F1 (defined pairs, bratiaa NaN)", want_mean, g_mean)
            if not self.close(want_sd, g_sd):
                self.bad(project, table, row, "SD F1 (defined pairs, bratiaa NaN)", want_sd, g_sd)
        else:
            self.undefined_all += 1
            self.numbers += 2
            if g_mean is not None or g_sd is not None:
                self.bad(project, table, row, "mean/SD F1 (no pair defined, bratiaa NaN)", "null", (g_mean, g_sd))


def check_project(fairscore, root, ck):
    name = os.path.basename(root)
    tables = fairscore_tables(fairscore, root)
    for how, token_func in (("instance", None), ("token", tokenize)):
        # exactly what `brat-iaa [-t] root` computes before printing iaa_report
        f1a = compute_f1_agreement(root, token_func=token_func)
        pdcl = f1a._pdcl  # (pairs, documents, [tp, 2tp+fp+fn], labels)
        # per document
        avg, sd = f1a.mean_sd_per_document()
        pdc = np.sum(pdcl, axis=3)
        f1_pd = compute_f1(pdc[:, :, 0], pdc[:, :, 1])
        got = rows_by(tables[f"{how}-documents"], "document")
        if set(got) != set(f1a.documents):
            ck.bad(name, f"{how}-documents", "*", "documents", sorted(f1a.documents), sorted(got))
        for j, doc in enumerate(f1a.documents):
            ck.summary_row(name, f"{how}-documents", doc, avg[j], sd[j], f1_pd[:, j], got.get(doc))
        # per label, then overall
        avg, sd = f1a.mean_sd_per_label()
        pcl = np.sum(pdcl, axis=1)
        f1_pl = compute_f1(pcl[:, 0], pcl[:, 1])
        got = rows_by(tables[f"{how}-labels"], "label")
        if set(got) != set(f1a.labels) | {"ALL"}:
            ck.bad(name, f"{how}-labels", "*", "labels", sorted(f1a.labels), sorted(set(got) - {"ALL"}))
        for j, lab in enumerate(f1a.labels):
            ck.summary_row(name, f"{how}-labels", lab, avg[j], sd[j], f1_pl[:, j], got.get(lab))
        avg, sd = f1a.mean_sd_total()
        pc = np.sum(pdcl, axis=(1, 3))
        f1_p = compute_f1(pc[:, 0], pc[:, 1])
        ck.summary_row(name, f"{how}-labels", "ALL", avg, sd, f1_p, got.get("ALL"))
        # per pair: TP, 2TP + FP + FN, F1 (bratiaa's pairs are combinations of the sorted
        # annotators, as fairscore's)
        got = {(r["key"]["annotator"], r["key"]["other_annotator"]): r["scores"]
               for r in tables[f"{how}-pairs"]["rows"]}
        for i, pair in enumerate(f1a._pairs):
            g = got.get(pair)
            row = " / ".join(pair)
            if g is None:
                ck.bad(name, f"{how}-pairs", row, "row", "present", "missing")
                continue
            tp, total = pc[i]
            ck.extra += 3
            if g["TP"] != tp:
                ck.bad(name, f"{how}-pairs", row, "TP", tp, g["TP"])
            if 2 * g["TP"] + g["FP"] + g["FN"] != total:
                ck.bad(name, f"{how}-pairs", row, "2TP+FP+FN", total, 2 * g["TP"] + g["FP"] + g["FN"])
            want = f1_p[i]
            if math.isnan(want) and g["F1"] is not None:
                ck.bad(name, f"{how}-pairs", row, "F1 (bratiaa NaN)", "null", g["F1"])
            elif not math.isnan(want) and not ck.close(want, g["F1"]):
                ck.bad(name, f"{how}-pairs", row, "F1", want, g["F1"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fairscore")
    ap.add_argument("workdir", help="emptied, then the generated projects (kept on failure)")
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--projects", type=int, default=30)
    ap.add_argument("--avoid-known", action="store_true",
                    help="generate none of the known differences (see the docstring)")
    ap.add_argument("--max-lines", type=int, default=40, help="mismatch lines printed at most")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--keep", action="store_true",
                    help="keep the generated projects (for further checks) also on success")
    opts = ap.parse_args()
    t0 = time.time()
    shutil.rmtree(opts.workdir, ignore_errors=True)
    os.makedirs(opts.workdir)
    st, ck = Stats(), Checker()
    shapes, known_of, bad_projects = [], {}, []
    for i in range(opts.projects):
        rng = random.Random(opts.seed * 1000 + i)
        name = f"project{i:02d}"
        root = os.path.join(opts.workdir, name)
        annotators, labels, known = generate(rng, root, st, opts)
        known_of[name] = known
        before = len(ck.mismatches)
        check_project(opts.fairscore, root, ck)
        shapes.append(len(annotators))
        if len(ck.mismatches) > before:
            bad_projects.append(name)
        if opts.verbose:
            print(f"{name}: {len(annotators)} annotators, {len(labels)} labels, "
                  f"{len(ck.mismatches) - before} mismatch(es); known differences: {sorted(known) or '-'}")
    for project, table, row, what, want, got in ck.mismatches[: opts.max_lines]:
        want = float(want) if isinstance(want, np.floating) else want
        print(f"MISMATCH {opts.workdir}/{project}: {table}: row {row!r}: {what}: "
              f"bratiaa {want!r}, fairscore {got!r}")
    if len(ck.mismatches) > opts.max_lines:
        print(f"... and {len(ck.mismatches) - opts.max_lines} more (--max-lines)")
    if opts.verbose:
        for k, v in sorted(st.c.items()):
            print(f"  generated: {k}: {v}")
    secs = time.time() - t0
    head = (f"bratiaa_crosscheck: {opts.projects} projects ({min(shapes)}-{max(shapes)} annotators, "
            f"seed {opts.seed}), {ck.numbers} numbers compared")
    undefined = (f"{ck.undefined_partial + ck.undefined_all} undefined cases per the documented "
                 f"rule: {ck.undefined_partial} with some pairs defined, {ck.undefined_all} with none")
    tail = f"{ck.extra} pair counts and per-pair values also compared; {secs:.1f}s"
    if ck.mismatches:
        explained = [p for p in bad_projects if known_of[p]]
        print(f"bratiaa_crosscheck: {len(bad_projects)} project(s) differ: {' '.join(bad_projects)}")
        for p in explained:
            print(f"  {p} has: {', '.join(sorted(known_of[p]))}")
        if len(explained) == len(bad_projects):
            print("  every differing project has a known difference (see the docstring); "
                  "--avoid-known generates none of them")
        else:
            print(f"  {len(bad_projects) - len(explained)} differing project(s) have no known difference")
        print(f"{head}, {ck.numbers_bad} differ, {len(ck.mismatches)} mismatch line(s) in all "
              f"({undefined}; {tail}); FAILED; projects kept in {opts.workdir}")
        sys.exit(1)
    if not opts.keep:
        shutil.rmtree(opts.workdir, ignore_errors=True)
    print(f"{head}, all equal ({undefined}; {tail})")


if __name__ == "__main__":
    main()
