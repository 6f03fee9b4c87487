"""The other file functions give what the CLI writes (repository fixtures; no ../shared)."""

import json

import pytest

import fairscore
from conftest import REPO, cell

FIX = REPO / "tests" / "fixtures"


def cli_json(fairscore_cli, tmp_path, *args):
    out = tmp_path / "cli.json"
    fairscore_cli(*args, "--json", out)
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("ext,fmt", [("conll", "conll"), ("spans", "spans"), ("tsv", "hipe")])
def test_fair_equals_the_cli(tmp_path, fairscore_cli, ext, fmt):
    t, s = FIX / "fair" / f"target.{ext}", FIX / "fair" / f"system.{ext}"
    cli = cli_json(fairscore_cli, tmp_path, "fair", "--target", t, "--system", s, "--format", fmt)
    assert fairscore.fair(t, s, format=fmt) == cli
    cli = cli_json(
        fairscore_cli, tmp_path, "fair", "--target", t, "--system", s, "--format", fmt, "--focus", "system"
    )
    assert fairscore.fair(t, s, fmt, focus="system") == cli


def test_segmentation_equals_the_cli(tmp_path, fairscore_cli):
    g, p = FIX / "segmentation" / "table1-gold.txt", FIX / "segmentation" / "table1-S1.txt"
    cli = cli_json(fairscore_cli, tmp_path, "segmentation", "--gold", g, "--pred", p, "--beta", "2")
    assert fairscore.segmentation(g, p, beta=2.0) == cli


def test_tagging_equals_the_cli(tmp_path, fairscore_cli):
    g, p = FIX / "tagging" / "multi-gold.tsv", FIX / "tagging" / "multi-pred.tsv"
    cli = cli_json(fairscore_cli, tmp_path, "tagging", "--gold", g, "--pred", p)
    assert fairscore.tagging(g, p) == cli
    with pytest.raises(fairscore.InputError) as e:
        fairscore.tagging(FIX / "tagging" / "misaligned-gold.tsv", FIX / "tagging" / "misaligned-pred.tsv")
    assert e.value.file and e.value.line is not None


def test_check_lists_the_clis_findings(tmp_path, fairscore_cli):
    t, s = FIX / "fair" / "target.tsv", FIX / "fair" / "system.tsv"
    p = fairscore_cli("check", "--ref", t, "--pred", s, "--skip-check", "--json", check=False)
    assert p.returncode in (0, 1), p.stderr
    findings = fairscore.check(t, s, skip_check=True)
    assert isinstance(findings, list)
    assert findings == json.loads(p.stdout)["findings"]


def test_normalize_returns_and_writes_the_text(tmp_path, fairscore_cli):
    src = tmp_path / "in.tsv"
    src.write_text(
        "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNE-FINE-LIT\tNE-FINE-METO\tNE-FINE-COMP\tNE-NESTED\tNEL-LIT\tNEL-METO\tMISC\n"
        "# document_id = d1\n"
        "Paris\tB-loc\tO\tB-loc.adm.town\tO\tO\tO\tQ90\t_\t_\n"
        "1900\tB-time\tO\tB-time.date.abs\tO\tO\tO\tQ2011\t_\t_\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.tsv"
    fairscore_cli("normalize", "-i", src, "-o", tmp_path / "cli.tsv", "--norm-time")
    text = fairscore.normalize(src, out, norm_time=True)
    assert text == (tmp_path / "cli.tsv").read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    assert "NIL" in text
    with pytest.raises(fairscore.UsageError):
        fairscore.normalize(src, norm_histo=True)


def test_muc_equals_the_cli(tmp_path, fairscore_cli):
    g, p = FIX / "muc" / "guide_gold.tsv", FIX / "muc" / "guide_run.tsv"
    cli = cli_json(fairscore_cli, tmp_path, "muc", "--ref", g, "--pred", p, "--beta", "2")
    listing = tmp_path / "judgements.tsv"
    got = fairscore.muc(g, p, beta=2.0, judgements=listing)
    assert got == cli
    # The guide's worked example (Appendix B).
    doc = fairscore.muc(g, p)
    judged = [cell(doc, "muc", ["ALL"], c) for c in ("COR", "INC", "PAR", "MIS", "SPU", "POS", "ACT")]
    assert judged == [4, 2, 2, 3, 2, 11, 10]
    # One front door: the command's JSON is the family's.
    assert doc == fairscore.family("muc", g, p)
    cli_listing = tmp_path / "cli_judgements.tsv"
    fairscore_cli("muc", "--ref", g, "--pred", p, "--judgements", cli_listing)
    assert listing.read_bytes() == cli_listing.read_bytes()
    with pytest.raises(fairscore.UsageError):
        fairscore.muc(g, p, format="xml")
    with pytest.raises(fairscore.UsageError):
        fairscore.muc(g, p, judgements=g)


def test_standoff_files_in_fair_and_check(tmp_path, fairscore_cli):
    """brat directories: fair and check give what the CLI gives (docs/standoff.md)."""
    brat = REPO / "tests" / "data" / "brat-tiny"
    g, r = brat / "ann1", brat / "ann2"
    cli = cli_json(fairscore_cli, tmp_path, "fair", "--target", g, "--system", r)
    assert fairscore.fair(g, r) == cli
    assert cell(cli, "fair", ["ALL"], "TP") >= 1
    run = tmp_path / "run"
    run.mkdir()
    (run / "doc1.txt").write_text((g / "doc1.txt").read_text(encoding="utf-8"), encoding="utf-8")
    (run / "doc1.ann").write_text("T1\tNOPE 0 4\tAnna\n", encoding="utf-8")
    (run / "doc2.txt").write_text((g / "doc2.txt").read_text(encoding="utf-8"), encoding="utf-8")
    (run / "doc2.ann").write_text("", encoding="utf-8")
    p = fairscore_cli("check", "--gold", g, "--pred", run, "--json", check=False)
    assert p.returncode == 1, p.stderr
    findings = fairscore.check(g, run)
    assert findings == json.loads(p.stdout)["findings"]
    assert [f["code"] for f in findings] == ["unknown-label"]
