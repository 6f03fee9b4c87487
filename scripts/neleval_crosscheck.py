"""Cross-checks `fairscore evaluate --family nel` against neleval 3.1.1 (docs/nel.md).

For every HIPE-2022 run of ../shared with links in NEL-LIT (and its relaxed, normalized
version against the `_histonorm` gold), this script converts gold and run to neleval's
annotation format itself (one line per mention: document, start, end, id, score, type), with
its own reading of HIPE TSV and its own grouping of links, written from the official scorer's
rules, not from fairscore's code:

- a document starts at a `document_id` comment (a run without one is cut into the gold's
  documents by token counts); a mention's offsets are token positions in its document; cells
  are upper-cased and NE tags `S-x`/`E-x` read as `B-x`/`I-x` (as the official reader does);
- links are grouped by the NE-COARSE-LIT entities: an entity is one mention with the link of
  its first token, a run's entity is cut where an I- token changes the link; a token outside
  entities with a link (not `_`/`-`) is a one-token mention; a mention whose link is `_`/`-`
  is left out; its type is its first token's NE type (`O` outside entities);
- at n-best K (1, 3, 5) a run mention's id is the gold's id at the same span when one of its
  first K candidates has the gold's KB id (NIL: an id beginning with NIL), else its first.

It then runs neleval's own command line (`neleval evaluate`, overall and `--by-doc`;
`neleval analyze --summary`) in this process and compares with fairscore's JSON: P, R, F1, TP,
FP, FN of the six measures micro and per document at every K, and the seven error-label
counts. neleval lists a document only when the gold has a mention in it; fairscore's other
documents must then have TP = FN = 0. The first FORMAT_RUNS runs (default 3) are also
written as CoNLL with a link column (`w NE LINK`, `-DOCSTART-` documents) and as brat (text
`w w …`, a T line per mention, an N line per candidate, NIL as no N line; docs/nel.md, "Formats")
and fairscore's tables of those compared with the same neleval numbers. Prints the runs and
numbers compared; exit 1 on a difference.

    python scripts/neleval_crosscheck.py FAIRSCORE SHARED_DIR
"""

import collections
import collections.abc
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# neleval 3.1.1 imports `collections.Sequence`, gone since Python 3.10.
collections.Sequence = collections.abc.Sequence
import warnings  # noqa: E402

warnings.simplefilter("ignore")  # neleval warns on every zero denominator (it then gives 0)
from neleval.__main__ import main as neleval_main  # noqa: E402

MEASURES = [
    "strong_mention_match",
    "strong_link_match",
    "strong_nil_match",
    "strong_all_match",
    "strong_typed_all_match",
    "entity_match",
]
LABELS = ["correct link", "correct nil", "nil-as-link", "link-as-nil", "wrong-link", "extra", "missing"]
CUTOFFS = [1, 3, 5]
DOC_RE = re.compile(r"^#\s*(?:hipe2022:)?document_id\s*=\s*(.*?)\s*$")


def read_hipe(path):
    """Documents as (id, rows), rows the (NE, NEL) cells of each token, upper-cased."""
    docs = []
    header = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if header is None:
                if line and not line.startswith("#"):
                    header = line.split("\t")
                    ne, nel = header.index("NE-COARSE-LIT"), header.index("NEL-LIT")
                continue
            m = DOC_RE.match(line)
            if m:
                docs.append((m.group(1), []))
                continue
            cells = line.split("\t")
            if not cells[0] or line.startswith("#"):
                continue
            get = lambda i: cells[i].strip().upper() if i < len(cells) else "_"
            tag = get(ne)
            # IOBES in NE columns read as IOB.
            if tag.startswith("S-"):
                tag = "B-" + tag[2:]
            elif tag.startswith("E-"):
                tag = "I-" + tag[2:]
            if not docs:
                docs.append(("#1", []))
            docs[-1][1].append((tag, get(nel)))
    return docs


def mentions(rows, gold):
    """The link mentions of a document: (start, end, type, [candidates])."""
    out = []
    cur = None  # [link, type, start]

    def close(end):
        out.append((cur[2], end, cur[0]))

    for i, (ne, link) in enumerate(rows):
        if ne == "O":
            if cur is not None:
                close(i - 1)
                cur = None
            if link not in ("_", "-"):
                out.append((i, i, link))
            continue
        ty = ne[2:]
        if cur is None:
            cur = [link, ty, i]
        elif ty == cur[1] and ne.startswith("I") and link != cur[0]:
            if not gold:
                close(i - 1)
                cur = [link, ty, i]
        elif ty != cur[1] or ne.startswith("B"):
            close(i - 1)
            cur = [link, ty, i]
    if cur is not None:
        close(len(rows) - 1)
    res = []
    for s, e, link in out:
        cands = link.split("|")
        if cands[0] in ("_", "-", ""):
            continue
        ne = rows[s][0]
        ty = "O" if ne in ("O", "_", "-") else ne[2:]
        res.append((s, e, ty, cands))
    return res


def kb(x):
    return None if x.startswith("NIL") else x


def write_annotations(path, docs):
    with open(path, "w", encoding="utf-8") as f:
        for doc, ms in docs:
            for s, e, ty, link in ms:
                f.write(f"{doc}\t{s}\t{e}\t{link}\t1\t{ty}\n")


def neleval(args):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        neleval_main(args)
    return buf.getvalue()


def fairscore_tables(fairscore, gold, run, extra=()):
    out = subprocess.run(
        [fairscore, "evaluate", "--family", "nel", "--gold", gold, "--pred", run,
         "--n-best", ",".join(map(str, CUTOFFS)), *extra, "--json", "-"],
        check=True, capture_output=True, text=True,
    ).stdout
    return {t["name"]: t for t in json.loads(out)["tables"]}


# The runs also scored as CoNLL and brat.
FORMATTED = []


def write_conll(path, docs):
    """The documents as CoNLL `TOKEN NE LINK` (docs/nel.md), tokens `w`, no link as `O`."""
    with open(path, "w", encoding="utf-8") as f:
        for _, rows in docs:
            f.write("-DOCSTART- O O\n\n")
            for ne, link in rows:
                f.write(f"w {ne} {'O' if link in ('_', '-') else link}\n")
            f.write("\n")


def write_brat(dirname, docs, ms):
    """The mentions `ms` (per document) as brat: text `w w w …`, a T line per mention, an N
    line per candidate, NIL as no N line (docs/nel.md)."""
    os.makedirs(dirname, exist_ok=True)
    for (doc, rows), (_, mentions_) in zip(docs, ms):
        with open(os.path.join(dirname, doc + ".txt"), "w", encoding="utf-8") as f:
            f.write(" ".join("w" for _ in rows))
        with open(os.path.join(dirname, doc + ".ann"), "w", encoding="utf-8") as f:
            n = 0
            for t, (s, e, ty, cands) in enumerate(mentions_, 1):
                f.write(f"T{t}\t{ty} {2 * s} {2 * e + 1}\t{' '.join('w' for _ in range(s, e + 1))}\n")
                for c in cands:
                    if not c.startswith("NIL"):
                        n += 1
                        f.write(f"N{n}\tReference T{t} KB:{c}\t{c}\n")


def other_formats(fairscore, g_docs, r_list, tmp):
    """fairscore's tables of the same links written as CoNLL and as brat, documents named as
    in HIPE TSV (CoNLL names them by line: renamed in order)."""
    out = []
    gc, rc = os.path.join(tmp, "gold.conll"), os.path.join(tmp, "run.conll")
    write_conll(gc, g_docs)
    write_conll(rc, r_list)
    t = fairscore_tables(fairscore, gc, rc, ["--format", "conll"])
    for name, table in t.items():
        if name.startswith("documents"):
            names = {}
            for r in table["rows"]:
                d = r["key"]["document"]
                if d not in names:
                    names[d] = g_docs[len(names)][0]
                r["key"]["document"] = names[d]
    out.append(("conll", t))
    gb, rb = os.path.join(tmp, "gold_brat"), os.path.join(tmp, "run_brat")
    shutil.rmtree(gb, ignore_errors=True)
    shutil.rmtree(rb, ignore_errors=True)
    write_brat(gb, g_docs, [(d, mentions(rows, True)) for d, rows in g_docs])
    write_brat(rb, g_docs, [(d, mentions(rows, False)) for d, rows in r_list])
    out.append(("brat", fairscore_tables(fairscore, gb, rb)))
    return out


def check_pair(fairscore, gold, run, tmp, diffs, formats=False):
    g_docs = read_hipe(gold)
    r_list = read_hipe(run)
    if len(r_list) == 1 and len(g_docs) > 1:
        # A run without document markers is cut into the gold's documents, token by token.
        rows, at, r_list = r_list[0][1], 0, []
        for doc, grows in g_docs:
            r_list.append((doc, rows[at:at + len(grows)]))
            at += len(grows)
    r_docs = dict(r_list)
    variants = [("", fairscore_tables(fairscore, gold, run))]
    if formats and all(len(r_docs.get(d, [])) == len(rows) for d, rows in g_docs):
        r_in_gold_order = [(d, r_docs.get(d, [])) for d, _ in g_docs]
        variants += [(f" ({f})", t) for f, t in other_formats(fairscore, g_docs, r_in_gold_order, tmp)]
        FORMATTED.append(run)
    gold_m, run_m = [], []
    for doc, rows in g_docs:
        rrows = r_docs.get(doc, [])
        if len(rrows) != len(rows):
            diffs.append(f"{run}: document {doc} has {len(rrows)} tokens, the gold {len(rows)}")
        gold_m.append((doc, [(s, e, t, c[0]) for s, e, t, c in mentions(rows, True)]))
        run_m.append((doc, mentions(rrows, False)))
    gpath = os.path.join(tmp, "gold.ann")
    write_annotations(gpath, gold_m)
    n = 0
    for k in CUTOFFS:
        resolved = []
        for (doc, gms), (_, rms) in zip(gold_m, run_m):
            at = {(s, e): link for s, e, _, link in gms}
            ms = []
            for s, e, ty, cands in rms:
                g = at.get((s, e))
                top = g if g is not None and any(kb(c) == kb(g) for c in cands[:k]) else cands[0]
                ms.append((s, e, ty, top))
            resolved.append((doc, ms))
        rpath = os.path.join(tmp, f"run{k}.ann")
        write_annotations(rpath, resolved)
        margs = [a for m in MEASURES for a in ("-m", m)]
        overall = json.loads(neleval(["evaluate", "-f", "json", "-g", gpath, *margs, rpath]))
        by_doc = json.loads(neleval(["evaluate", "-f", "json", "--by-doc", "-g", gpath, *margs, rpath]))
        for fmt, tables in variants:
            sfx = "" if k == CUTOFFS[0] else f"@{k}"
            micro = {r["key"]["level"]: r["scores"] for r in tables["micro" + sfx]["rows"]}
            docs = {(r["key"]["document"], r["key"]["level"]): r["scores"] for r in tables["documents" + sfx]["rows"]}
            for m in MEASURES:
                n += compare(f"{run}{fmt} {m}{sfx}", overall[m], micro[m], diffs)
            reported = set()
            for name, res in by_doc.items():
                m, _, doc = name.partition(";docid=")
                doc = json.loads(doc) if doc.startswith('"') else None
                if doc is None:
                    continue  # <micro>, <macro>
                reported.add(doc)
                n += compare(f"{run}{fmt} {doc} {m}{sfx}", res, docs[(doc, m)], diffs)
            for (doc, m), s in docs.items():
                if doc not in reported:
                    n += 2
                    if s["TP"] != 0 or s["FN"] != 0:
                        diffs.append(f"{run}{fmt} {doc} {m}{sfx}: no gold mention, fairscore TP {s['TP']} FN {s['FN']}")
            if k == 1:
                summary = neleval(["analyze", "-s", "-g", gpath, rpath])
                counts = {lab: 0 for lab in LABELS}
                for line in summary.splitlines():
                    if line.strip():
                        c, lab = line.split("\t")
                        counts[lab] = int(c)
                ours = {r["key"]["label"]: r["scores"]["count"] for r in tables["errors"]["rows"]}
                for lab in LABELS:
                    n += 1
                    if counts[lab] != ours[lab]:
                        diffs.append(f"{run}{fmt} error label {lab}: neleval {counts[lab]}, fairscore {ours[lab]}")
    return n


def compare(what, nel, ours, diffs):
    pairs = [("precision", "P"), ("recall", "R"), ("fscore", "F1"), ("ptp", "TP"), ("fp", "FP"), ("fn", "FN")]
    for a, b in pairs:
        if float(nel[a]) != float(ours[b]):
            diffs.append(f"{what} {b}: neleval {nel[a]!r}, fairscore {ours[b]!r}")
    if nel["ptp"] != nel["rtp"]:
        diffs.append(f"{what}: neleval ptp {nel['ptp']} != rtp {nel['rtp']}")
    return len(pairs)


def has_links(path):
    for _, rows in read_hipe(path):
        if any(link not in ("_", "-") for _, link in rows):
            return True
    return False


def main():
    fairscore, shared = sys.argv[1], sys.argv[2]
    base = os.path.join(shared, "data", "hipe2022")
    name_re = re.compile(r"^[^_]+_bundle\d+_([a-z]+)_([a-z]+)_\d+\.tsv$")
    pairs = []
    for sub, suffix in (("submissions", ""), ("histonorm-submissions", "_histonorm")):
        d = os.path.join(base, sub)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            m = name_re.match(f)
            run = os.path.join(d, f)
            if not m or not has_links(run):
                continue
            gold = os.path.join(base, "gold", f"HIPE-2022-v2.1-{m.group(1)}-test-{m.group(2)}{suffix}.tsv")
            if os.path.isfile(gold):
                pairs.append((gold, run))
    limit = int(os.environ.get("MAX_RUNS", "0") or 0)
    if limit:
        pairs = pairs[:limit]
    diffs = []
    numbers = 0
    # The first runs are also written as CoNLL with a link column and as brat with N lines.
    n_formats = int(os.environ.get("FORMAT_RUNS", "3") or 0)
    with tempfile.TemporaryDirectory() as tmp:
        for i, (gold, run) in enumerate(pairs):
            numbers += check_pair(fairscore, gold, run, tmp, diffs, i < n_formats)
    for d in diffs[:40]:
        print("DIFF", d)
    print(f"neleval_crosscheck: {len(pairs)} runs ({len(FORMATTED)} also as CoNLL and brat), {numbers} numbers compared with neleval 3.1.1, {len(diffs)} different")
    if not pairs:
        print("neleval_crosscheck: no NEL run found", file=sys.stderr)
        return 1
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
