"""`fairscore.family("spans"|"fair"|"muc", …, breakdown=…)`: the breakdown tables of
docs/breakdown.md reach Python by the option's name, and a bad key is a UsageError naming the
keys."""

import pytest

import fairscore

GOLD = "Paris B-LOC\nis O\nnice O\n\nAnna B-PER\nKarenina I-PER\nsings O\n\nUN B-ORG\nmet O\nBob B-PER\n\n"
RUN = "Paris B-LOC\nis O\nnice O\n\nAnna B-PER\nKarenina O\nsings O\n\nUN B-LOC\nmet O\nBob B-PER\n\n"


def _files(tmp_path):
    g, r = tmp_path / "g.conll", tmp_path / "r.conll"
    g.write_text(GOLD)
    r.write_text(RUN)
    return str(g), str(r)


def test_label_and_length_buckets(tmp_path):
    g, r = _files(tmp_path)
    res = fairscore.family("spans", g, r, breakdown="label,length", bootstrap=50)
    tables = {t["name"]: t for t in res["tables"]}
    assert "breakdown:label" in tables and "breakdown:length:examples" in tables
    rows = {row["key"]["bucket"]: row["scores"] for row in tables["breakdown:label"]["rows"]}
    # LOC: the gold Paris is found (TP-gold 1); the run's LOC spans are Paris (TP) and UN (FP).
    assert (rows["LOC"]["TP-gold"], rows["LOC"]["FN"]) == (1, 0)
    assert (rows["LOC"]["TP-run"], rows["LOC"]["FP"]) == (1, 1)
    assert rows["LOC"]["P"] == pytest.approx(0.5) and rows["LOC"]["R"] == pytest.approx(1.0)
    # ORG: the gold UN is missed; no run span is ORG.
    assert (rows["ORG"]["TP-gold"], rows["ORG"]["FN"], rows["ORG"]["FP"]) == (0, 1, 0)
    for row in tables["breakdown:length"]["rows"]:
        lo, hi = row["ci"]["F1"]
        assert 0 <= lo <= hi <= 1


def test_an_unknown_key_names_the_keys(tmp_path):
    g, r = _files(tmp_path)
    with pytest.raises(fairscore.UsageError) as e:
        fairscore.family("spans", g, r, breakdown="lenght")
    for key in ("label", "length", "sentence_length", "train_consistency"):
        assert key in str(e.value)


def test_fair_breakdown_counts_each_span_once_per_side(tmp_path):
    # Paris: TP. Anna Karenina (PER, 2 tokens) found as Anna (PER, 1 token): one boundary
    # error, on the gold side in PER and length 2, on the run side in PER and length 1. UN: ORG
    # in the gold, LOC in the run: a labeling error, LE-gold of ORG and LE-run of LOC. Bob: TP.
    g, r = _files(tmp_path)
    res = fairscore.family("fair", g, r, breakdown="label,length")
    tables = {t["name"]: t for t in res["tables"]}
    rows = {row["key"]["bucket"]: row["scores"] for row in tables["breakdown:label"]["rows"]}
    assert (rows["LOC"]["TP-gold"], rows["LOC"]["TP-run"], rows["LOC"]["LE-run"]) == (1, 1, 1)
    assert rows["LOC"]["P"] == pytest.approx(1 / 1.5) and rows["LOC"]["R"] == pytest.approx(1.0)
    assert (rows["ORG"]["LE-gold"], rows["ORG"]["LE-run"], rows["ORG"]["R"]) == (1, 0, 0)
    assert (rows["PER"]["BE-gold"], rows["PER"]["BE-run"]) == (1, 1)
    assert rows["PER"]["R"] == pytest.approx(1 / 1.5) and rows["PER"]["P"] == pytest.approx(1 / 1.5)
    # The keys of HIPE metadata need a HIPE TSV gold that carries them: refused on CoNLL,
    # naming the gold.
    with pytest.raises(fairscore.UsageError) as e:
        fairscore.family("fair", g, r, breakdown="noise")
    assert "noise" in str(e.value) and str(g) in str(e.value)
    # chars: "Paris" (5), "Anna Karenina" (13) found as "Anna" (4), "UN" (2), "Bob" (3).
    res = fairscore.family("fair", g, r, breakdown="chars")
    rows = next(t for t in res["tables"] if t["name"] == "breakdown:chars")["rows"]
    # Gold values 2, 3, 5, 13: cuts 2, 3, 5. The boundary error falls in "> 5" on the gold side
    # (13 characters) and in "(3, 5]" on the run side (4).
    by = {row["key"]["bucket"]: row["scores"] for row in rows}
    assert list(by) == ["<= 2", "(2, 3]", "(3, 5]", "> 5"]
    assert (by["> 5"]["BE-gold"], by["> 5"]["BE-run"]) == (1, 0)
    assert (by["(3, 5]"]["BE-run"], by["(3, 5]"]["TP-gold"]) == (1, 1)


def test_muc_breakdown_counts_each_judged_token_on_the_side_of_its_entity(tmp_path):
    # Tokens (docs/muc.md): Paris correct (LOC); Anna correct, Karenina partial (the gold PER
    # entity overlaps the run's Anna); UN incorrect (gold ORG, run LOC); Bob correct (PER).
    g, r = _files(tmp_path)
    res = fairscore.family("muc", g, r, breakdown="label,length")
    tables = {t["name"]: t for t in res["tables"]}
    rows = {row["key"]["bucket"]: row["scores"] for row in tables["breakdown:label"]["rows"]}
    # LOC: gold Paris (COR); run Paris (COR) and UN (INC on the run side): P 1/2, R 1.
    assert (rows["LOC"]["COR-gold"], rows["LOC"]["COR-run"], rows["LOC"]["INC-run"]) == (1, 1, 1)
    assert rows["LOC"]["P"] == pytest.approx(0.5) and rows["LOC"]["R"] == pytest.approx(1.0)
    # ORG: the gold UN, incorrect; no run entity is ORG.
    assert (rows["ORG"]["INC-gold"], rows["ORG"]["INC-run"], rows["ORG"]["R"]) == (1, 0, 0)
    # PER: gold Anna Karenina (COR 1, PAR 1) and Bob (COR 1): R = 2.5 / 3; run Anna, Bob: P 1.
    assert (rows["PER"]["COR-gold"], rows["PER"]["PAR-gold"], rows["PER"]["PAR-run"]) == (2, 1, 0)
    assert rows["PER"]["R"] == pytest.approx(2.5 / 3) and rows["PER"]["P"] == pytest.approx(1.0)
    # length: gold values 1, 1, 1, 2 give the buckets "<= 1" and "> 1"; every run entity has 1.
    by = {row["key"]["bucket"]: row["scores"] for row in tables["breakdown:length"]["rows"]}
    assert list(by) == ["<= 1", "> 1"]
    assert (by["> 1"]["COR-gold"], by["> 1"]["PAR-gold"], by["> 1"]["COR-run"]) == (1, 1, 0)
    assert (by["<= 1"]["COR-run"], by["<= 1"]["INC-run"]) == (3, 1)
    assert by["> 1"]["R"] == pytest.approx(0.75) and by["> 1"]["P"] == 0
    # noise reads HIPE metadata, which a CoNLL gold lacks.
    with pytest.raises(fairscore.UsageError):
        fairscore.family("muc", g, r, breakdown="noise")
