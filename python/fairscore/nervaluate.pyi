"""Type hints of fairscore.nervaluate, the drop-in for nervaluate 1.2.1 (nervaluate.py)."""

from abc import ABC, abstractmethod
from typing import Any, Dict, Iterable, List, Literal, Optional, Tuple, Union

Scenario = Literal["strict", "partial", "ent_type", "exact"]
Mode = Literal["overall", "entities"]

class Entity:
    """An entity: its label and its first and last token (``end`` is inclusive)."""

    label: str
    start: int
    end: int
    def __init__(self, label: str, start: int, end: int) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class EvaluationResult:
    """The counts of one strategy with P/R/F1 (the int 0 when undefined)."""

    correct: int
    incorrect: int
    partial: int
    missed: int
    spurious: int
    precision: float
    recall: float
    f1: float
    actual: int
    possible: int
    def __init__(
        self,
        correct: int = 0,
        incorrect: int = 0,
        partial: int = 0,
        missed: int = 0,
        spurious: int = 0,
        precision: float = 0.0,
        recall: float = 0.0,
        f1: float = 0.0,
        actual: int = 0,
        possible: int = 0,
    ) -> None: ...
    def compute_metrics(self, partial_or_type: bool = False) -> None: ...

class EvaluationIndices:
    """``(document, entity)`` pairs per outcome."""

    correct_indices: List[Tuple[int, int]]
    incorrect_indices: List[Tuple[int, int]]
    partial_indices: List[Tuple[int, int]]
    missed_indices: List[Tuple[int, int]]
    spurious_indices: List[Tuple[int, int]]
    def __init__(
        self,
        correct_indices: Optional[List[Tuple[int, int]]] = None,
        incorrect_indices: Optional[List[Tuple[int, int]]] = None,
        partial_indices: Optional[List[Tuple[int, int]]] = None,
        missed_indices: Optional[List[Tuple[int, int]]] = None,
        spurious_indices: Optional[List[Tuple[int, int]]] = None,
    ) -> None: ...

class EvaluationStrategy(ABC):
    min_overlap_percentage: float
    def __init__(self, min_overlap_percentage: float = 1.0) -> None: ...
    @abstractmethod
    def evaluate(
        self, true_entities: List[Entity], pred_entities: List[Entity], tags: List[str], instance_index: int = 0
    ) -> Tuple[EvaluationResult, EvaluationIndices]: ...

class StrictEvaluation(EvaluationStrategy):
    def evaluate(
        self, true_entities: List[Entity], pred_entities: List[Entity], tags: List[str], instance_index: int = 0
    ) -> Tuple[EvaluationResult, EvaluationIndices]: ...

class PartialEvaluation(EvaluationStrategy):
    def evaluate(
        self, true_entities: List[Entity], pred_entities: List[Entity], tags: List[str], instance_index: int = 0
    ) -> Tuple[EvaluationResult, EvaluationIndices]: ...

class EntityTypeEvaluation(EvaluationStrategy):
    def evaluate(
        self, true_entities: List[Entity], pred_entities: List[Entity], tags: List[str], instance_index: int = 0
    ) -> Tuple[EvaluationResult, EvaluationIndices]: ...

class ExactEvaluation(EvaluationStrategy):
    def evaluate(
        self, true_entities: List[Entity], pred_entities: List[Entity], tags: List[str], instance_index: int = 0
    ) -> Tuple[EvaluationResult, EvaluationIndices]: ...

class DataLoader(ABC):
    @abstractmethod
    def load(self, data: Any) -> List[List[Entity]]: ...

class ConllLoader(DataLoader):
    def load(self, data: str) -> List[List[Entity]]: ...

class ListLoader(DataLoader):
    def load(self, data: List[List[str]]) -> List[List[Entity]]: ...

class DictLoader(DataLoader):
    def load(self, data: List[List[Dict[str, Any]]]) -> List[List[Entity]]: ...

class Evaluator:
    """nervaluate's evaluator: ``evaluate()`` gives ``{"overall", "entities",
    "overall_indices", "entity_indices"}``."""

    tags: List[str]
    min_overlap_percentage: float
    loaders: Dict[str, DataLoader]
    strategies: Dict[str, EvaluationStrategy]
    true: List[List[Entity]]
    pred: List[List[Entity]]
    def __init__(
        self,
        true: Any,
        pred: Any,
        tags: List[str],
        loader: Literal["default", "list", "conll", "dict"] = "default",
        min_overlap_percentage: float = 1.0,
    ) -> None: ...
    def evaluate(self) -> Dict[str, Any]: ...
    def results_to_csv(
        self, mode: Mode = "overall", scenario: Scenario = "strict", file_path: Optional[str] = None
    ) -> Union[str, None]: ...
    def summary_report(self, mode: Mode = "overall", scenario: Scenario = "strict", digits: int = 2) -> str: ...
    def summary_report_indices(
        self, mode: Mode = "overall", scenario: Scenario = "strict", colors: bool = False
    ) -> str: ...

def split_list(token: List[str], split_chars: Optional[List[str]] = None) -> List[List[str]]: ...
def collect_named_entities(tokens: List[str]) -> List[Dict[str, Any]]: ...
def list_to_spans(doc: List[List[str]]) -> List[List[Dict[str, Any]]]: ...
def conll_to_spans(doc: str) -> List[List[Dict[str, Any]]]: ...
def find_overlap(true_range: Iterable[int], pred_range: Iterable[int]) -> set: ...
def clean_entities(ent: Dict[str, Any]) -> Dict[str, Any]: ...
