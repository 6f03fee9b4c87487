"""Hostile inputs through the Python API (issue 26): every one is a fairscore exception of
the right class naming the problem, never a crash or a silent result."""

import pytest

import fairscore


def _write(path, text):
    path.write_bytes(text.encode("utf-8"))
    return path


def test_bare_cr_segmentation_text_is_an_input_error(tmp_path):
    g = _write(tmp_path / "g.txt", "a b\rc d\r")
    with pytest.raises(fairscore.InputError) as e:
        fairscore.segmentation(g, g)
    assert e.value.line == 1
    assert "bare CR" in e.value.message


def test_bare_cr_tagging_file_is_an_input_error(tmp_path):
    g = _write(tmp_path / "g.tsv", "to\tsubst:sg\rjest\tfin:sg\r")
    with pytest.raises(fairscore.InputError) as e:
        fairscore.tagging(g, g)
    assert "carriage return" in e.value.message


def test_duplicate_span_is_an_input_error_naming_both_lines(tmp_path):
    t = _write(tmp_path / "t.spans", "PER\t1\t2\nLOC\t4\t5\n")
    s = _write(tmp_path / "s.spans", "PER\t1\t2\nPER\t1\t2\n")
    with pytest.raises(fairscore.InputError) as e:
        fairscore.fair(t, s)
    assert (e.value.file, e.value.line) == (str(s), 2)
    assert "lines 1 and 2" in e.value.message


def test_muc_on_a_link_column_is_a_usage_error(tmp_path):
    text = (
        "TOKEN\tNE-COARSE-LIT\tNEL-LIT\n"
        "# hipe2022:document_id = d1\n"
        "Paris\tB-LOC\tQ90\n"
    )
    g = _write(tmp_path / "g.tsv", text)
    with pytest.raises(fairscore.UsageError):
        fairscore.muc(g, g, column="NEL-LIT")


def test_muc_refuses_a_bare_label(tmp_path):
    head = "TOKEN\tNE-COARSE-LIT\n# hipe2022:document_id = d1\n"
    g = _write(tmp_path / "g.tsv", head + "Paris\tB-LOC\n")
    p = _write(tmp_path / "p.tsv", head + "Paris\tLOC\n")
    with pytest.raises(fairscore.InputError) as e:
        fairscore.muc(g, p)
    assert e.value.line == 3


def test_huge_fair_weights_give_finite_scores(tmp_path):
    t = _write(tmp_path / "t.spans", "PER\t1\t2\nLOC\t4\t5\n")
    s = _write(tmp_path / "s.spans", "PER\t1\t3\nLOC\t4\t5\n")
    big = "1" + "0" * 307
    w = ",".join(
        f"{c}={big}{x}" for c, x in [("TP", "TP"), ("FP", "FP"), ("FN", "FN")]
    ) + f",LE={big}FP+{big}FN,BE={big}FP+{big}FN,LBE={big}FP+{big}FN"
    r = fairscore.fair(t, s, weights=w)
    f1 = next(t for t in r["tables"] if t["name"] == "weighted")["rows"][0]["scores"]["F1"]
    assert f1 == f1 and 0.0 <= f1 <= 1.0


def test_mismatched_tag_lists_are_input_errors():
    with pytest.raises(fairscore.InputError):
        fairscore.evaluate([["B-PER", "O"]], [["B-PER"]])
    with pytest.raises(fairscore.UsageError):
        fairscore.classification_report([["O"]], [["O"]], scheme="NOPE")


@pytest.mark.parametrize("func", ["segmentation", "tagging"])
def test_standoff_files_are_refused_by_token_readers(tmp_path, func):
    # A brat .ann with its .txt: segmentation and tagging read token files, so the .ann must
    # be refused by name rather than read as text.
    _write(tmp_path / "d.txt", "Anna Berg lives here\n")
    ann = _write(tmp_path / "d.ann", "T1\tPER 0 9\tAnna Berg\n")
    with pytest.raises(fairscore.InputError) as e:
        getattr(fairscore, func)(ann, ann)
    assert e.value.file == str(ann)
    assert "standoff annotation" in e.value.message
