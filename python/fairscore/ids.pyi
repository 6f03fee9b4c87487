"""Type hints of :mod:`fairscore.ids` (scores from label ids: ``compute_metrics`` in one call)."""

from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

#: ``model.config.id2label`` (a dict of id → tag) or a list of tags.
Id2Label = Union[Mapping[int, str], Sequence[str]]

def tags_from_ids(
    predictions: Any, label_ids: Any, id2label: Id2Label, *, ignore_index: int = -100
) -> Tuple[List[List[str]], List[List[str]]]:
    """``(y_true, y_pred)`` as the ``compute_metrics`` boilerplate builds them."""

def from_ids(
    predictions: Any,
    label_ids: Any,
    id2label: Id2Label,
    *,
    ignore_index: int = -100,
    suffix: bool = False,
    scheme: Optional[Union[str, type]] = None,
    mode: Optional[Literal["strict"]] = None,
    zero_division: Union[Literal["warn"], int] = "warn",
    regimes: bool = False,
) -> Dict[str, Any]:
    """Hugging Face's seqeval metric from label ids (or logits), computed natively."""

def hf_scores(
    y_true: List[List[str]],
    y_pred: List[List[str]],
    *,
    suffix: bool = False,
    scheme: Optional[Union[str, type]] = None,
    mode: Optional[Literal["strict"]] = None,
    sample_weight: Optional[Sequence[float]] = None,
    zero_division: Union[Literal["warn"], int] = "warn",
) -> Dict[str, Any]: ...
def regime_scores(y_true: List[List[str]], y_pred: List[List[str]]) -> Dict[str, Dict[str, float]]: ...
