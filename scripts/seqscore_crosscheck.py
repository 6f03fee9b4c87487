#!/usr/bin/env python3
"""Cross-checks `fairscore convert` against seqscore 0.9's `convert`, `repair` and `process`
on real CoNLL files, byte for byte.

The CoNLL files are written here (standard library only, independently of fairscore) from the
HIPE-2022 gold files and NERC runs of ../shared/data/hipe2022: one line a token,
`TOKEN<TAB>NE-FINE-LIT<TAB>NE-COARSE-LIT` (the tag last; `_`, `-` or an empty tag read as `O`,
white space inside a token as `_`), a blank line after a token whose MISC has EndOfSentence,
and a `-DOCSTART-` line before each document (`# hipe2022:document_id`). The runs are real
system outputs: some hold invalid BIO transitions (an I- after O), some IOBES tags.

For every file F, each comparison runs seqscore and fairscore on the same input and compares
the two outputs byte for byte (both tools refusing the input is counted apart, as agreement
on a refusal; one refusing alone is a difference):

- repair: `seqscore repair --labels BIO --repair-method conlleval|discard` against
  `fairscore convert --from BIO --to BIO --repair conlleval|discard`, and `--labels IOB
  --repair-method conlleval` (F read as IOB) against `--from IOB --to IOB --repair
  conlleval`. fairscore's repair log must name exactly the lines whose tag changed.
- convert: F repaired with conlleval (R), then for every encoding E of seqscore (BIO, BIOES,
  BILOU, BMES, BMEOW, IO, IOB): `seqscore convert --input-labels BIO --output-labels E` against
  `fairscore convert --from BIO --to E`, and back from E to BIO; going back must give R again
  (but from IO, which cannot tell adjacent mentions of one type apart).
- process: `seqscore process --keep-types`, `--remove-types` and `--type-map` on R against
  `fairscore convert --keep-types`, `--remove-types` and `--map-types`.

Usage: seqscore_crosscheck.py FAIRSCORE SEQSCORE --shared DIR --workdir DIR [--max-files N]
Exit 1 when any comparison differs, 0 when all agree.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ENCODINGS = ["BIO", "BIOES", "BILOU", "BMES", "BMEOW", "IO", "IOB"]


def hipe_to_conll(src, dst):
    """Writes the CoNLL file of a HIPE TSV file; returns the number of tokens."""
    lines = src.read_text(encoding="utf-8").split("\n")
    header = None
    out, n, in_sentence, docs = [], 0, False, 0
    for line in lines:
        line = line.rstrip("\r")
        if header is None:
            if line.strip():
                header = line.split("\t")
            continue
        if line.startswith("#"):
            if "document_id" in line:
                if in_sentence:
                    out.append("")
                    in_sentence = False
                out.append("-DOCSTART-\t-X-\tO")
                out.append("")
                docs += 1
            continue
        if not line.strip():
            continue
        cells = dict(zip(header, line.split("\t")))
        tok = "".join("_" if c.isspace() else c for c in cells.get("TOKEN", "")) or "_"
        tag = lambda k: "O" if cells.get(k, "_") in ("_", "-", "") else cells[k]  # noqa: E731
        out.append(f"{tok}\t{tag('NE-FINE-LIT')}\t{tag('NE-COARSE-LIT')}")
        n += 1
        in_sentence = True
        if "EndOfSentence" in cells.get("MISC", ""):
            out.append("")
            in_sentence = False
    if in_sentence:
        out.append("")
    dst.write_text("\n".join(out) + "\n", encoding="utf-8")
    return n


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stderr


class Tally:
    def __init__(self):
        self.equal = self.refused = 0
        self.diffs = []

    def compare(self, what, ss_cmd, fs_cmd, ss_out, fs_out):
        for p in (ss_out, fs_out):
            if p.exists():
                p.unlink()
        rc_s, err_s = run(ss_cmd)
        rc_f, err_f = run(fs_cmd)
        if rc_s != 0 and rc_f != 0:
            self.refused += 1
            return False
        if rc_s != 0 or rc_f != 0:
            who = "seqscore" if rc_s else "fairscore"
            msg = (err_s if rc_s else err_f).strip().splitlines()
            self.diffs.append(f"{what}: only {who} refused: {msg[-1] if msg else ''}")
            return False
        if ss_out.read_bytes() != fs_out.read_bytes():
            self.diffs.append(f"{what}: outputs differ ({ss_out} vs {fs_out})")
            return False
        self.equal += 1
        return True


def tags_by_line(path):
    out = {}
    for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        cells = line.split("\t")
        if len(cells) > 1 and cells[0] != "-DOCSTART-":
            out[i] = cells[-1]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fairscore")
    ap.add_argument("seqscore")
    ap.add_argument("--shared", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--max-files", type=int, default=0)
    a = ap.parse_args()
    data = Path(a.shared) / "data" / "hipe2022"
    work = Path(a.workdir)
    work.mkdir(parents=True, exist_ok=True)
    sources = sorted(p for p in (data / "gold").glob("*.tsv") if "histonorm" not in p.name)
    sources += sorted((data / "submissions").glob("*.tsv"))
    if a.max_files:
        sources = sources[: a.max_files]
    fs, ss = a.fairscore, a.seqscore
    t = Tally()
    files = log_checked = round_trips = 0
    for src in sources:
        d = work / src.stem
        d.mkdir(exist_ok=True)
        f = d / "in.conll"
        if hipe_to_conll(src, f) == 0:
            continue
        files += 1
        # Repairs.
        for labels, method in [("BIO", "conlleval"), ("BIO", "discard"), ("IOB", "conlleval")]:
            so, fo, log = d / f"ss-{labels}-{method}", d / f"fs-{labels}-{method}", d / "log"
            same = t.compare(
                f"{src.name} repair {labels} {method}",
                [ss, "repair", "--labels", labels, "--repair-method", method, "-q", str(f), str(so)],
                [fs, "convert", "--in", str(f), "--out", str(fo), "--from", labels, "--to", labels,
                 "--repair", method, "--repair-log", str(log)],
                so, fo,
            )
            if same:
                before, after = tags_by_line(f), tags_by_line(fo)
                changed = {i for i in before if before[i] != after.get(i)}
                logged = set()
                for line in log.read_text(encoding="utf-8").splitlines():
                    logged.add(int(line.split(":")[1]))
                if changed != logged:
                    t.diffs.append(f"{src.name} repair {labels} {method}: the log names "
                                   f"{len(logged)} lines, {len(changed)} tags changed")
                log_checked += 1
        base = d / "fs-BIO-conlleval"
        if not base.exists():
            continue
        # Every encoding and back.
        for e in ENCODINGS:
            so, fo = d / f"ss-to-{e}", d / f"fs-to-{e}"
            if not t.compare(
                f"{src.name} convert BIO->{e}",
                [ss, "convert", "--input-labels", "BIO", "--output-labels", e, str(base), str(so)],
                [fs, "convert", "--in", str(base), "--out", str(fo), "--from", "BIO", "--to", e],
                so, fo,
            ):
                continue
            sb, fb = d / f"ss-back-{e}", d / f"fs-back-{e}"
            if t.compare(
                f"{src.name} convert {e}->BIO",
                [ss, "convert", "--input-labels", e, "--output-labels", "BIO", str(fo), str(sb)],
                [fs, "convert", "--in", str(fo), "--out", str(fb), "--from", e, "--to", "BIO"],
                sb, fb,
            ) and e != "IO":
                if fb.read_bytes() != base.read_bytes():
                    t.diffs.append(f"{src.name}: BIO -> {e} -> BIO is not the original")
                round_trips += 1
        # Type changes.
        types = sorted({tag.split("-", 1)[1] for tag in tags_by_line(base).values() if "-" in tag})
        if len(types) >= 2:
            tmap = d / "map.json"
            tmap.write_text(json.dumps({"MAPPED": types[:2]}), encoding="utf-8")
            for name, ss_args, fs_args in [
                ("keep", ["--keep-types", ",".join(types[:2])], ["--keep-types", ",".join(types[:2])]),
                ("remove", ["--remove-types", types[0]], ["--remove-types", types[0]]),
                ("map", ["--type-map", str(tmap)], ["--map-types", str(tmap)]),
            ]:
                so, fo = d / f"ss-{name}", d / f"fs-{name}"
                t.compare(
                    f"{src.name} process {name}",
                    [ss, "process", "--labels", "BIO", *ss_args, str(base), str(so)],
                    [fs, "convert", "--in", str(base), "--out", str(fo), "--from", "BIO", *fs_args],
                    so, fo,
                )
    for x in t.diffs:
        print("DIFF", x)
    print(f"seqscore crosscheck: {files} CoNLL files, {t.equal + t.refused + len(t.diffs)} "
          f"comparisons: {t.equal} equal byte for byte, {t.refused} refused by both, "
          f"{len(t.diffs)} different; repair logs checked on {log_checked} outputs; "
          f"{round_trips} round trips BIO -> E -> BIO equal to the original")
    return 1 if t.diffs or t.equal == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
