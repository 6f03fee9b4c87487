"""Errors are Python exceptions of the library's classes, carrying file, line and message."""

import pytest

import fairscore


def test_input_error_names_file_and_line(tmp_path):
    gold = tmp_path / "gold.conll"
    gold.write_text("a B-PER\nb I-PER x\n", encoding="utf-8")
    run = tmp_path / "run.conll"
    run.write_text("a B-PER\nb I-PER\n", encoding="utf-8")
    with pytest.raises(fairscore.InputError) as e:
        fairscore.score(gold, run, "nerc_coarse", format="conll")
    err = e.value
    assert isinstance(err, fairscore.FairscoreError)
    assert (err.file, err.line) == (str(gold), 2)
    assert "expected 2 cells" in err.message
    assert str(err).startswith(f"{gold}:2: ")


def test_missing_file_is_an_input_error(tmp_path):
    missing = tmp_path / "nope.tsv"
    with pytest.raises(fairscore.InputError) as e:
        fairscore.check(missing, missing, skip_check=True)
    assert e.value.file == str(missing)
    assert e.value.line == 0


def test_usage_errors_have_no_file(tmp_path):
    with pytest.raises(fairscore.UsageError) as e:
        fairscore.score(tmp_path / "g.tsv", tmp_path / "r.tsv", "ner")
    assert e.value.file is None and e.value.line is None
    assert "ner" in e.value.message
    with pytest.raises(fairscore.UsageError):
        fairscore.score(tmp_path / "g", tmp_path / "r", "nerc_coarse", n_best="0")
    with pytest.raises(fairscore.UsageError):
        fairscore.evaluate([["O"]], [["O"]], scheme="BILOU")


def test_evaluate_names_the_side_and_the_sequence():
    with pytest.raises(fairscore.InputError) as e:
        fairscore.evaluate([["O"], ["B-PER"]], [["O"], ["X-PER"]])
    assert (e.value.file, e.value.line) == ("y_pred", 2)
    assert "X-PER" in e.value.message
    with pytest.raises(fairscore.InputError) as e:
        fairscore.evaluate([["O"], ["B-PER"]], [["O"], ["B-PER", "O"]])
    assert (e.value.file, e.value.line) == ("y_pred", 2)


def test_output_over_input_is_refused(tmp_path):
    src = tmp_path / "in.tsv"
    src.write_text("TOKEN\tNE-COARSE-LIT\tNEL-LIT\nx\tO\t_\n", encoding="utf-8")
    m = tmp_path / "map.tsv"
    m.write_text("", encoding="utf-8")
    with pytest.raises(fairscore.FairscoreError):
        fairscore.normalize(src, m, norm_histo=True, map=m)
