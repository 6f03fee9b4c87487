"""from_ids with label ids outside int64 (issue 33, class 4): a uint64 id of 2**64 - 100 is
no id of id2label and must never wrap round to the ignore index -100; it is a ValueError
naming the grid, row and column, as an unknown id is."""

import pytest

import fairscore

np = pytest.importorskip("numpy")

ID2LABEL = {0: "O", 1: "B-PER", 2: "I-PER"}
BIG = 2**64 - 100


def test_uint64_gold_id_past_int64_is_a_value_error_not_the_ignore_index():
    gold = np.array([[1, 2, 0], [0, BIG, 1]], dtype=np.uint64)
    pred = np.array([[1, 2, 0], [0, 0, 1]], dtype=np.uint64)
    with pytest.raises(ValueError, match=r"label_ids\[1\]\[1\]: label id 18446744073709551516 is not in id2label"):
        fairscore.from_ids(pred, gold, ID2LABEL)
    with pytest.raises(ValueError, match=r"label_ids\[1\]\[1\]"):
        fairscore.tags_from_ids(pred, gold, ID2LABEL)


def test_uint64_prediction_past_int64_is_a_value_error_naming_it():
    gold = np.array([[1, 2, 0]], dtype=np.uint64)
    pred = np.array([[1, BIG, 0]], dtype=np.uint64)
    with pytest.raises(ValueError, match=r"predictions\[0\]\[1\]: label id 18446744073709551516"):
        fairscore.from_ids(pred, gold, ID2LABEL)


def test_a_huge_prediction_where_the_gold_is_ignored_is_dropped_as_any_other():
    gold = np.array([[1, 2, 0, 0]], dtype=np.int64)
    gold[0, 3] = -100
    pred = np.array([[1, 2, 0, BIG]], dtype=np.uint64)
    r = fairscore.from_ids(pred, gold, ID2LABEL)
    assert r["overall_f1"] == 1.0


def test_lists_with_ids_past_int64_are_value_errors_too():
    with pytest.raises(ValueError, match=r"label_ids\[0\]\[2\]: label id 18446744073709551516"):
        fairscore.from_ids([[1, 2, 0]], [[1, 2, BIG]], ID2LABEL)
    with pytest.raises(ValueError, match=r"label_ids\[0\]\[0\]: label id -9223372036854775809"):
        fairscore.from_ids([[1]], [[-(2**63) - 1]], ID2LABEL)


def test_uint64_ids_within_int64_score_as_before():
    gold = np.array([[1, 2, 0]], dtype=np.uint64)
    pred = np.array([[1, 2, 0]], dtype=np.uint64)
    assert fairscore.from_ids(pred, gold, ID2LABEL)["overall_f1"] == 1.0
