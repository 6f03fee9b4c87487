#!/usr/bin/env python3
"""Cross-checks `fairscore evaluate --family spans|fair` on standoff files against the same
spans scored from token (CoNLL) files, on the HIPE-2022 NERC runs of ../shared.

Why: standoff inputs (brat, doccano, Prodigy, Label Studio; docs/standoff.md) are scored over
*positions* of a text (whitespace tokens cut at every span boundary), not over tokens. Where
every span starts and ends on token boundaries this must give exactly the numbers of the same
spans written as IOB tags over the tokens. tests/it/standoff/standoff_scores.rs checks that on random
little documents; this script checks it on real data (41 runs, up to 100,000 tokens, glued
punctuation, line breaks inside entities, Greek and long s) with a conversion written here
independently of fairscore (standard library only; fairscore is only called to score).

For every gold file gold/HIPE-2022-v2.1-DATASET-test-LANG.tsv (not _histonorm) and every run
submissions/TEAM_bundleN_DATASET_LANG_RUN.tsv:

- Text. Each gold document (`# hipe2022:document_id = X` starts one) becomes one text: its
  tokens joined by one space, nothing after a token whose MISC has NoSpaceAfter, a newline
  after EndOfSentence or EndOfLine (when not NoSpaceAfter). The run's tokens are taken by
  position (as the official scorer aligns a run to the gold; several runs have no comment
  lines, team5's runs have a few tokens spelled differently), so the run's spans go on the
  gold's text. Document names are "NNN_X" (NNN its position in the gold) so that every layout
  (brat sorted by path, JSON in file order) has the documents in the gold's order: bootstrap
  resamples of the documents are then the same draws on both sides.
- Spans from NE-COARSE-LIT, conlleval's reading (fairscore's default --continuation): B-X
  starts a span; I-X continues the open span when it has label X, otherwise (an I-X after O,
  after another label or at a document's start) it *starts* a span of X; any other tag (O, _,
  the IOBES S-X/E-X some runs contain) ends the open span. A document boundary ends a span. A
  span is [start of its first token, end of its last) in code points.
- Layouts written: brat directories (NNN_X.ann + .txt), doccano JSONL (labels triples),
  Prodigy JSONL (spans), Label Studio JSON export (offsets in UTF-16 code units), each JSON
  document with "id" = the brat name; and CoNLL (token TAB IOB2 tag re-derived from the
  spans, "-DOCSTART- -X- O O" and a blank line before each document, a blank line after an
  EndOfSentence token unless a gold or run span goes on across it, since a sentence break
  ends a CoNLL entity; these are counted and reported).

Compared, every count and score of every table (every label and ALL; family, unit, units,
resampling), ignoring signature, signature_fields, notes and warnings (they describe the
inputs; differing notes/warnings are listed for information):
  conll/conll (the reference)  vs  brat/brat, doccano/prodigy, labelstudio/doccano, brat/conll
for --family spans, fair and muc; again with --bootstrap N --seed S (intervals over
documents on both sides) for a few runs. A row present on one side only with all counts zero
is reported as ZERO-ROWS (still a difference).

The muc family (MUC-7 judges every token) is compared likewise, except that between two
standoff files it judges the text's whitespace tokens, where CoNLL has the tokenizer's (a
run of tokens glued by NoSpaceAfter is one position): its standoff/standoff results are
compared on the control text only, brat/conll on both.

Control text: brat/brat again on a text with a space after *every* token
(NoSpaceAfter ignored), where positions are exactly the tokens. The fair family's passes
depend on span lengths (FairEval sorts by length and removes shared tokens), and a run of
tokens glued by NoSpaceAfter ("Praz-Cou¬" is 3 tokens) is one position when no span boundary
falls inside it; so a fair difference on the real text that vanishes on the control text is
reported as GLUED (explained, not a failure); any other difference fails.

Then the HIPE TSV files themselves
(`--format hipe --column NE-COARSE-LIT`, spans and fair) against conll/conll, label names
compared upper-cased (the HIPE reader upper-cases values); a difference there is not a
failure of this check but is explained: the script re-scores CoNLL files written with the
HIPE reader's documented normalisations (IOBES S-/E- read as B-/I-, values upper-cased) and
says whether that accounts for it, and counts run tokens spelled differently from the gold.

Usage: standoff_crosscheck.py FAIRSCORE --shared DIR --workdir DIR [--bootstrap N] [--seed S]
       [--bootstrap-runs NAME,NAME] [--jobs J] [--keep]
Prints one line per comparison group ("spans brat/brat vs conll/conll: 41/41 equal"), every
difference (first fields), a summary line, and exits 1 when a comparison that must be equal is
not, 2 on a fairscore error.
"""

import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

FAMILIES = ("spans", "fair", "muc")
# (name, gold layout, run layout); conll/conll is the reference the others must equal.
CONFIGS = (
    ("conll/conll", "conll", "conll"),
    ("brat/brat", "brat", "brat"),
    ("doccano/prodigy", "doccano", "prodigy"),
    ("labelstudio/doccano", "labelstudio", "doccano"),
    ("brat/conll", "brat", "conll"),
)
IGNORED = ("signature", "signature_fields", "notes", "warnings")
RUN_NAME = re.compile(r"^(?P<team>.+?)_bundle\d+_(?P<dataset>[a-z]+)_(?P<lang>[a-z]+)_\d+\.tsv$")
GOLD_NAME = re.compile(r"^HIPE-2022-v2\.1-(?P<dataset>[a-z]+)-test-(?P<lang>[a-z]+)\.tsv$")


# ---------------------------------------------------------------- reading HIPE TSV


def read_tsv(path, column="NE-COARSE-LIT"):
    """Documents of a HIPE TSV file: [(document_id or None, [(token, tag, misc), ...])]."""
    docs = []
    cur = None
    with open(path, encoding="utf-8", newline="") as f:
        header = f.readline().rstrip("\r\n").lstrip("\ufeff").split("\t")
        col, misc = header.index(column), header.index("MISC")
        for line in f:
            line = line.rstrip("\r\n")
            if not line or not line.split("\t")[0]:
                continue
            if line.startswith("#"):
                m = re.match(r"#\s*hipe2022:document_id\s*=\s*(.*)$", line)
                if m:
                    cur = (m.group(1).strip(), [])
                    docs.append(cur)
                continue
            cells = line.split("\t")
            cells += ["_"] * (len(header) - len(cells))
            if cur is None:
                cur = (None, [])
                docs.append(cur)
            cur[1].append((cells[0], cells[col], cells[misc]))
    return docs


# ---------------------------------------------------------------- spans


def token_spans(tags):
    """[(first token, last token, label)] of an IOB tag sequence, conlleval's reading."""
    out, cur = [], None
    for i, t in enumerate(tags):
        if t.startswith("I-") and cur is not None and cur[2] == t[2:]:
            cur[1] = i
            continue
        if cur is not None:
            out.append(tuple(cur))
            cur = None
        if t.startswith(("B-", "I-")) and len(t) > 2:
            cur = [i, i, t[2:]]
    if cur is not None:
        out.append(tuple(cur))
    return out


def build_text(tokens, spaced=False):
    """The document's text and each token's [start, end) in code points. `spaced`: a space
    after NoSpaceAfter too, so that every token is a whitespace token (the control text)."""
    parts, offsets, pos = [], [], 0
    for i, (tok, _, misc) in enumerate(tokens):
        offsets.append((pos, pos + len(tok)))
        parts.append(tok)
        pos += len(tok)
        if i + 1 < len(tokens):
            flags = misc.split("|")
            sep = "" if "NoSpaceAfter" in flags and not spaced else (
                "\n" if "EndOfSentence" in flags or "EndOfLine" in flags else " ")
            parts.append(sep)
            pos += len(sep)
    return "".join(parts), offsets


def utf16_index(text):
    """Code point offset -> UTF-16 offset (identity when the text is all BMP)."""
    if all(ord(c) < 0x10000 for c in text):
        return lambda i: i
    acc, n = [0], 0
    for c in text:
        n += 2 if ord(c) >= 0x10000 else 1
        acc.append(n)
    return acc.__getitem__


class Doc:
    """One gold document with the gold's and the run's spans (token and character ranges)."""

    def __init__(self, name, tokens, gold_tags, run_tags, run_tokens, spaced=False):
        self.name = name
        self.tokens = [t for t, _, _ in tokens]
        self.run_tokens = run_tokens
        self.misc = [m for _, _, m in tokens]
        self.text, self.offsets = build_text(tokens, spaced)
        self.tok_spans = {"gold": token_spans(gold_tags), "run": token_spans(run_tags)}
        self.spans = {
            side: [(self.offsets[a][0], self.offsets[b][1], lab) for a, b, lab in sp]
            for side, sp in self.tok_spans.items()
        }
        # Sentence breaks after EndOfSentence, unless a span goes on across them.
        inside = set()
        for sp in self.tok_spans.values():
            for a, b, _ in sp:
                inside.update(range(a, b))  # token i and i+1 in the same span
        self.breaks, self.kept_together = set(), 0
        for i, m in enumerate(self.misc[:-1]):
            if "EndOfSentence" in m.split("|"):
                if i in inside:
                    self.kept_together += 1
                else:
                    self.breaks.add(i)


# ---------------------------------------------------------------- writing layouts


def write_conll(path, docs, side, own_tokens=False):
    """`own_tokens`: the run's tokens as the run spells them (else the gold's)."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for d in docs:
            tokens = d.run_tokens if own_tokens and side == "run" else d.tokens
            tags = ["O"] * len(d.tokens)
            for a, b, lab in d.tok_spans[side]:
                tags[a] = "B-" + lab
                for i in range(a + 1, b + 1):
                    tags[i] = "I-" + lab
            f.write("-DOCSTART- -X- O O\n\n")
            for i, (tok, tag) in enumerate(zip(tokens, tags)):
                f.write(f"{tok}\t{tag}\n")
                if i in d.breaks:
                    f.write("\n")
            f.write("\n")


def write_brat(path, docs, side):
    path.mkdir(parents=True, exist_ok=True)
    for d in docs:
        with open(path / f"{d.name}.txt", "w", encoding="utf-8", newline="") as f:
            f.write(d.text)
        with open(path / f"{d.name}.ann", "w", encoding="utf-8", newline="") as f:
            for k, (s, e, lab) in enumerate(d.spans[side], 1):
                covered = re.sub(r"\s", " ", d.text[s:e])
                f.write(f"T{k}\t{lab} {s} {e}\t{covered}\n")


def write_jsonl(path, docs, side, layout):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for d in docs:
            o = {"id": d.name, "text": d.text}
            if layout == "doccano":
                o["labels"] = [[s, e, lab] for s, e, lab in d.spans[side]]
            else:
                o["spans"] = [{"start": s, "end": e, "label": lab} for s, e, lab in d.spans[side]]
            f.write(json.dumps(o, ensure_ascii=False) + "\n")


def write_labelstudio(path, docs, side):
    tasks = []
    for d in docs:
        u = utf16_index(d.text)
        result = [
            {
                "id": f"r{k}",
                "from_name": "label",
                "to_name": "text",
                "type": "labels",
                "value": {"start": u(s), "end": u(e), "text": d.text[s:e], "labels": [lab]},
            }
            for k, (s, e, lab) in enumerate(d.spans[side], 1)
        ]
        tasks.append({
            "id": d.name,
            "data": {"text": d.text},
            "annotations": [{"id": 1, "was_cancelled": False, "result": result}],
            "predictions": [],
        })
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(tasks, f, ensure_ascii=False, indent=1)


def write_layout(base, docs, side, layout, own_tokens=False):
    """Writes `docs` (the `side` spans) in `layout` under `base`; returns the path to give."""
    if layout == "conll":
        p = base / f"{side}.conll"
        write_conll(p, docs, side, own_tokens)
    elif layout == "brat":
        p = base / f"{side}_brat"
        write_brat(p, docs, side)
    elif layout in ("doccano", "prodigy"):
        p = base / f"{side}.{layout}.jsonl"
        write_jsonl(p, docs, side, layout)
    else:
        p = base / f"{side}.labelstudio.json"
        write_labelstudio(p, docs, side)
    return p


# ---------------------------------------------------------------- fairscore


class FairscoreError(Exception):
    pass


def evaluate(fs, family, gold, run, extra=()):
    cmd = [fs, "evaluate", "--family", family, "--gold", str(gold), "--pred", str(run),
           "--json", "-", *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise FairscoreError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[:600]}")
    return json.loads(p.stdout)


def evaluate_or_error(fs, family, gold, run, extra=()):
    """evaluate(), or {"error": message} when fairscore refuses the files."""
    try:
        return evaluate(fs, family, gold, run, extra)
    except FairscoreError as e:
        return {"error": str(e)}


def flatten(res, upper=False):
    """{path: value} of everything compared in a result (tables by name, rows by key)."""
    out = {}
    for k, v in res.items():
        if k in IGNORED or k == "tables":
            continue
        out[k] = json.dumps(v, sort_keys=True)
    for t in res.get("tables", []):
        name = t["name"]
        out[f"{name}.keys"] = json.dumps(t.get("keys"))
        out[f"{name}.columns"] = json.dumps(t.get("columns"))
        for row in t.get("rows", []):
            key = "/".join(str(row["key"][k]) for k in sorted(row["key"]))
            if upper:
                key = key.upper()
            for col, v in row.get("scores", {}).items():
                out[f"{name}.{key}.{col}"] = v
            for col, v in (row.get("ci") or {}).items():
                out[f"{name}.{key}.ci.{col}"] = v
            for extra in set(row) - {"key", "scores", "ci"}:
                out[f"{name}.{key}.{extra}"] = json.dumps(row[extra], sort_keys=True)
    return out


def diff(a, b, limit=6):
    fa, fb = flatten(a[0], a[1]), flatten(b[0], b[1])
    out = []
    for k in sorted(set(fa) | set(fb), key=lambda k: (k not in fa or k not in fb, k)):
        va, vb = fa.get(k, "(absent)"), fb.get(k, "(absent)")
        if va != vb:
            out.append(f"{k}: {va} vs {vb}")
    return out[:limit], len(out)


def info_diff(a, b):
    """Differing notes/warnings (informational)."""
    out = []
    for k in ("notes", "warnings"):
        if a.get(k) != b.get(k):
            out.append(f"{k}: {json.dumps(a.get(k), ensure_ascii=False)[:200]} vs "
                       f"{json.dumps(b.get(k), ensure_ascii=False)[:200]}")
    return out


# ---------------------------------------------------------------- the pairs


def pairs(shared):
    data = Path(shared) / "data" / "hipe2022"
    golds = {}
    for g in sorted((data / "gold").glob("HIPE-2022-v2.1-*-test-*.tsv")):
        m = GOLD_NAME.match(g.name)
        if m:  # the _histonorm files do not match
            golds[(m["dataset"], m["lang"])] = g
    out = []
    for r in sorted((data / "submissions").glob("*.tsv")):
        m = RUN_NAME.match(r.name)
        if m and (m["dataset"], m["lang"]) in golds:
            out.append((golds[(m["dataset"], m["lang"])], r))
    return out


def make_docs(gold_docs, run_tokens, hipe_norm=False, spaced=False):
    """Docs of one pair, the run's (token, tag, misc) taken by position (the official scorer's
    alignment). `hipe_norm`: tags normalised as the HIPE reader does; `spaced`: the control
    text. Returns the docs and the number of run tokens spelled differently from the gold."""
    norm = hipe_normalise if hipe_norm else (lambda t: t)
    docs, pos, respelled = [], 0, 0
    for i, (name, toks) in enumerate(gold_docs):
        run = run_tokens[pos:pos + len(toks)]
        respelled += sum(a[0] != b[0] for a, b in zip(toks, run))
        pos += len(toks)
        docs.append(Doc(f"{i + 1:03d}_{name or 'doc'}", toks, [norm(t[1]) for t in toks],
                        [norm(t[1]) for t in run], [t[0] for t in run], spaced))
    return docs, respelled


def hipe_normalise(tag):
    """The HIPE reader's documented value normalisation (docs; src/formats/hipe.rs header):
    values upper-cased, IOBES S-/E- read as B-/I-."""
    tag = tag.upper()
    if tag.startswith("S-"):
        return "B-" + tag[2:]
    if tag.startswith("E-"):
        return "I-" + tag[2:]
    return tag


def write_pair(base, docs, layouts):
    """Writes the (side, layout) files of `layouts`; returns {(side, layout): path}."""
    if base.exists():
        shutil.rmtree(base)
    base.mkdir(parents=True)
    return {(side, lay): write_layout(base, docs, side, lay) for side, lay in layouts}


def zero_rows(d):
    """Whether every difference is a row present on one side only with all counts zero."""
    return all("(absent)" in x and x.split(": ", 1)[1].replace("(absent)", "").strip(" vs")
               in ("0", "0.0") for x in d)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fairscore")
    ap.add_argument("--shared", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--bootstrap", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bootstrap-runs",
                    default="neurbsl_bundle3_ajmc_de_1,team4_bundle4_newseye_fi_1",
                    help="runs (file names without .tsv) also compared with intervals")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--keep", action="store_true", help="keep every pair's files")
    args = ap.parse_args()

    fs = args.fairscore
    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    all_pairs = pairs(args.shared)
    if not all_pairs:
        print("standoff_crosscheck: no gold/run pairs found", file=sys.stderr)
        return 2
    boot_runs = set(args.bootstrap_runs.split(",")) if args.bootstrap > 0 else set()
    boot = ("--bootstrap", str(args.bootstrap), "--seed", str(args.seed))
    hipe = ("--format", "hipe", "--column", "NE-COARSE-LIT")
    layouts = {(s, l) for _, gl, rl in CONFIGS for s, l in (("gold", gl), ("run", rl))}
    control = ("brat/brat",)  # the configuration also scored on the spaced text

    # results[(mode, config, run, family)]: mode plain (the text), boot (with intervals),
    # spaced (the control text), hipe (the TSV files), hipenorm (CoNLL as the HIPE reader sees).
    pool = cf.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    futures, gold_cache, respelled = {}, {}, {}
    stats = {"docs": 0, "spans_gold": 0, "spans_run": 0, "kept_together": 0, "non_bmp": 0}
    for gold, run in all_pairs:
        rname = run.name[:-4]
        if gold not in gold_cache:
            gold_cache[gold] = read_tsv(gold)
        run_tokens = [t for _, toks in read_tsv(run) for t in toks]
        n_gold = sum(len(toks) for _, toks in gold_cache[gold])
        if len(run_tokens) != n_gold:
            print(f"standoff_crosscheck: {run.name}: {len(run_tokens)} tokens, the gold has "
                  f"{n_gold}; skipped")
            continue
        base = work / rname
        docs, respelled[rname] = make_docs(gold_cache[gold], run_tokens)
        stats["docs"] += len(docs)
        stats["spans_gold"] += sum(len(d.spans["gold"]) for d in docs)
        stats["spans_run"] += sum(len(d.spans["run"]) for d in docs)
        stats["kept_together"] += sum(d.kept_together for d in docs)
        stats["non_bmp"] += sum(any(ord(c) > 0xFFFF for c in d.text) for d in docs)
        paths = write_pair(base, docs, layouts)
        sdocs, _ = make_docs(gold_cache[gold], run_tokens, spaced=True)
        spaths = write_pair(base / "spaced", sdocs, layouts)
        ndocs, _ = make_docs(gold_cache[gold], run_tokens, hipe_norm=True)
        nbase = base / "hipe_norm"
        nbase.mkdir()
        ng = write_layout(nbase, ndocs, "gold", "conll")
        nr = write_layout(nbase, ndocs, "run", "conll", own_tokens=True)
        for fam in FAMILIES:
            for cname, gl, rl in CONFIGS:
                g, r = paths["gold", gl], paths["run", rl]
                futures[("plain", cname, rname, fam)] = pool.submit(evaluate, fs, fam, g, r)
                if rname in boot_runs:
                    futures[("boot", cname, rname, fam)] = pool.submit(
                        evaluate, fs, fam, g, r, boot)
                if cname in control:  # the reference: the plain conll/conll (same files)
                    futures[("spaced", cname, rname, fam)] = pool.submit(
                        evaluate, fs, fam, spaths["gold", gl], spaths["run", rl])
            futures[("hipe", "hipe/hipe", rname, fam)] = pool.submit(
                evaluate, fs, fam, gold, run, hipe)
            # A brat gold against the HIPE TSV run itself (aligned through the text).
            futures[("mixed", "brat/hipe-tsv", rname, fam)] = pool.submit(
                evaluate_or_error, fs, fam, paths["gold", "brat"], run,
                ("--column", "NE-COARSE-LIT"))
            futures[("hipenorm", "conll/conll", rname, fam)] = pool.submit(
                evaluate, fs, fam, ng, nr)

    results, errors = {}, []
    for key, fut in futures.items():
        try:
            results[key] = fut.result()
        except (FairscoreError, json.JSONDecodeError) as e:
            errors.append(f"{key[2]} {key[3]} {key[0]} {key[1]}: {e}")
    pool.shutdown()

    runs = [r for r in (run.name[:-4] for _, run in all_pairs) if r in respelled]
    print(f"standoff_crosscheck: {len(runs)} runs, {stats['docs']} documents, "
          f"{stats['spans_gold']} gold and {stats['spans_run']} run spans; "
          f"{stats['kept_together']} EndOfSentence breaks left out of the CoNLL because a span "
          f"goes on across them; {stats['non_bmp']} texts with non-BMP characters")
    failed = bool(errors)
    for e in errors:
        print(f"  ERROR {e}")

    def compare(mode, fam, cname):
        """[(run, first differences, number)] of a group, and the runs compared."""
        ref = "plain" if mode == "spaced" else mode
        names = [r for r in runs if (mode, cname, r, fam) in results
                 and (ref, "conll/conll", r, fam) in results]
        bad = []
        for r in names:
            d, n = diff((results[(ref, "conll/conll", r, fam)], False),
                        (results[(mode, cname, r, fam)], False))
            if n:
                bad.append((r, d, n))
        return names, bad

    infos, counts = [], {"equal": 0, "different": 0, "explained": 0}
    for mode in ("plain", "spaced", "boot"):
        for fam in FAMILIES:
            for cname, _, _ in CONFIGS[1:]:
                # muc judges tokens: between two standoff files they are the text's
                # whitespace tokens, so it equals CoNLL on the control text only (and
                # against a CoNLL side, whose tokens cut the positions, everywhere).
                if fam == "muc" and cname != "brat/conll" and mode != "spaced":
                    continue
                names, bad = compare(mode, fam, cname)
                if not names:
                    continue
                ref = "plain" if mode == "spaced" else mode
                for r in names:
                    infos.extend(f"{fam} {mode} {cname} {r}: {x}" for x in info_diff(
                        results[(ref, "conll/conll", r, fam)], results[(mode, cname, r, fam)]))
                label = f"{fam} {cname}" + {
                    "plain": "",
                    "spaced": " (control text: a space after every token)",
                    "boot": f" (bootstrap {args.bootstrap}, seed {args.seed})"}[mode]
                # A fair difference on the text that vanishes on the control text comes from
                # tokens glued by NoSpaceAfter: one position of the text, several CoNLL tokens.
                spaced_bad = {x[0] for c in control for x in compare("spaced", fam, c)[1]}
                spaced_ok = {r for c in control for r in compare("spaced", fam, c)[0]}
                glued = [b for b in bad if mode == "plain" and fam == "fair"
                         and b[0] in spaced_ok and b[0] not in spaced_bad
                         and not zero_rows(b[1])]
                counts["equal"] += len(names) - len(bad)
                counts["explained"] += len(glued)
                counts["different"] += len(bad) - len(glued)
                extra = f", {len(glued)} explained by glued tokens" if glued else ""
                print(f"{label} vs conll/conll: {len(names) - len(bad)}/{len(names)} equal{extra}")
                for r, d, n in bad:
                    if any(r == g[0] for g in glued):
                        print(f"  GLUED {r}: {n} fields differ (equal on the control text): "
                              + "; ".join(d))
                        continue
                    failed = True
                    kind = "ZERO-ROWS" if zero_rows(d) else "DIFF"
                    print(f"  {kind} {r}: {n} fields differ: " + "; ".join(d))

    # The HIPE TSV files themselves: informational, with the cause of any difference.
    hipe_summary = []
    for fam in FAMILIES:
        names = [r for r in runs if ("hipe", "hipe/hipe", r, fam) in results
                 and ("plain", "conll/conll", r, fam) in results]
        same, explained, unexplained = [], [], []
        for r in names:
            h = results[("hipe", "hipe/hipe", r, fam)]
            d, n = diff((results[("plain", "conll/conll", r, fam)], True), (h, True))
            if not n:
                same.append(r)
                continue
            hn = results.get(("hipenorm", "conll/conll", r, fam))
            d2, n2 = diff((hn, True), (h, True)) if hn else (["(no result)"], 1)
            (explained if not n2 else unexplained).append((r, d, n, d2, n2))
        print(f"{fam} hipe-tsv vs conll/conll (labels compared upper-cased): "
              f"{len(same)}/{len(names)} equal, {len(explained)} differ only by the HIPE "
              f"reader's normalisation (IOBES S-/E- as B-/I-, upper case, the run's own "
              f"token spelling), {len(unexplained)} otherwise")
        for r, d, n, _, _ in explained:
            print(f"  HIPE-NORM {r} ({respelled[r]} run tokens spelled differently from the "
                  f"gold): {n} fields differ: " + "; ".join(d[:3]))
        for r, d, n, d2, n2 in unexplained:
            print(f"  HIPE-OTHER {r} ({respelled[r]} run tokens spelled differently from the "
                  f"gold): {n} fields differ from conll/conll: " + "; ".join(d[:3]))
            print(f"    and {n2} from the normalised conll/conll: " + "; ".join(d2[:4]))
        hipe_summary.append(f"{fam} {len(same)}/{len(explained)}/{len(unexplained)}")

    # A brat gold against the HIPE TSV run: equal to hipe/hipe (labels upper-cased: against
    # HIPE TSV standoff labels are compared upper-cased), or, for a run whose tokens are
    # spelled differently from the gold, refused naming the run's line.
    mixed_summary = []
    for fam in FAMILIES:
        names = [r for r in runs if ("mixed", "brat/hipe-tsv", r, fam) in results
                 and ("hipe", "hipe/hipe", r, fam) in results]
        equal, refused = 0, 0
        for r in names:
            m = results[("mixed", "brat/hipe-tsv", r, fam)]
            if "error" in m:
                if respelled[r] and "does not match the text" in m["error"] and f"{r}.tsv:" in m["error"]:
                    refused += 1
                    continue
                failed = True
                print(f"  MIXED-ERROR {r} {fam}: {m['error'][:300]}")
                continue
            d, n = diff((results[("hipe", "hipe/hipe", r, fam)], True), (m, True))
            if n:
                failed = True
                print(f"  MIXED-DIFF {r} {fam}: {n} fields differ: " + "; ".join(d))
            else:
                equal += 1
        print(f"{fam} brat/hipe-tsv vs hipe-tsv/hipe-tsv: {equal}/{len(names)} equal, "
              f"{refused} refused as expected (run tokens spelled differently from the gold's "
              f"text)")
        mixed_summary.append(f"{fam} {equal}/{refused}/{len(names) - equal - refused}")

    if infos:
        print(f"notes/warnings that differ (informational, {len(infos)}):")
        for x in infos[:10]:
            print("  " + x)
        if len(infos) > 10:
            print(f"  … {len(infos) - 10} more")

    if not args.keep and not failed:
        for r in runs:
            shutil.rmtree(work / r, ignore_errors=True)
    print(f"standoff_crosscheck: {'FAILED' if failed else 'OK'}: standoff vs CoNLL "
          f"comparisons: {counts['equal']} equal, {counts['explained']} differ by glued tokens "
          f"only, {counts['different']} differ otherwise"
          + (f", {len(errors)} fairscore errors" if errors else "")
          + f"; HIPE TSV equal/normalisation/other: {', '.join(hipe_summary)}"
          + f"; brat vs HIPE TSV equal/refused/other: {', '.join(mixed_summary)}")
    return 2 if errors else 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
