"""Type hints of :mod:`fairscore.seqeval`, the drop-in for ``seqeval.metrics`` (seqeval 1.2.2)."""

from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Type, Union

Tags = List[List[str]]
Scheme = Union[str, type, None]
ZeroDivision = Union[Literal["warn"], int]
Average = Optional[Literal["micro", "macro", "weighted"]]

class UndefinedMetricWarning(UserWarning): ...
class IOB1: ...
class IOE1: ...
class IOB2: ...
class IOE2: ...
class IOBES: ...
class BILOU: ...

def get_entities(seq: Union[List[str], Tags], suffix: bool = False) -> List[Tuple[str, int, int]]: ...
def accuracy_score(y_true: Union[List[str], Tags], y_pred: Union[List[str], Tags]) -> float: ...
def performance_measure(y_true: Union[List[str], Tags], y_pred: Union[List[str], Tags]) -> Dict[str, int]: ...
def precision_recall_fscore_support(
    y_true: Tags,
    y_pred: Tags,
    *,
    average: Average = None,
    warn_for: Sequence[str] = ("precision", "recall", "f-score"),
    beta: float = 1.0,
    sample_weight: Optional[Sequence[float]] = None,
    zero_division: ZeroDivision = "warn",
    suffix: bool = False,
    mode: Optional[str] = None,
    scheme: Scheme = None,
) -> Tuple[Any, Any, Any, Any]: ...
def precision_score(
    y_true: Tags, y_pred: Tags, *, average: Average = "micro", suffix: bool = False, mode: Optional[str] = None,
    sample_weight: Optional[Sequence[float]] = None, zero_division: ZeroDivision = "warn", scheme: Scheme = None,
) -> Any: ...
def recall_score(
    y_true: Tags, y_pred: Tags, *, average: Average = "micro", suffix: bool = False, mode: Optional[str] = None,
    sample_weight: Optional[Sequence[float]] = None, zero_division: ZeroDivision = "warn", scheme: Scheme = None,
) -> Any: ...
def f1_score(
    y_true: Tags, y_pred: Tags, *, average: Average = "micro", suffix: bool = False, mode: Optional[str] = None,
    sample_weight: Optional[Sequence[float]] = None, zero_division: ZeroDivision = "warn", scheme: Scheme = None,
) -> Any: ...
def classification_report(
    y_true: Tags, y_pred: Tags, digits: int = 2, suffix: bool = False, output_dict: bool = False,
    mode: Optional[str] = None, sample_weight: Optional[Sequence[float]] = None,
    zero_division: ZeroDivision = "warn", scheme: Scheme = None,
) -> Union[str, Dict[str, Dict[str, Any]]]: ...
