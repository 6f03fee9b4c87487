"""A drop-in for nervaluate 1.2.1: ``from fairscore.nervaluate import Evaluator``.

``Evaluator(true, pred, tags, loader="default", min_overlap_percentage=1.0)`` takes the same
inputs (tag lists, a CoNLL string or span dicts), raises the same errors and its
``evaluate()`` returns the same dict: ``"overall"`` and ``"entities"`` (per label) results of
the four strategies ``strict``, ``partial``, ``ent_type`` and ``exact`` as
:class:`EvaluationResult` objects, and ``"overall_indices"`` and ``"entity_indices"`` as
:class:`EvaluationIndices`, with nervaluate's counting (docs/nervaluate.md describes it), done
by the library (``matching::attribution``, the counting of ``fairscore evaluate --family spans
--attribution nervaluate``; entities of ``str`` labels and 64-bit offsets).
``results_to_csv``, ``summary_report`` and ``summary_report_indices`` give nervaluate's text.
The names nervaluate users import (``Evaluator``, ``collect_named_entities``,
``conll_to_spans``, ``list_to_spans``, ``split_list``, and from its submodules ``Entity``,
``EvaluationResult``, ``EvaluationIndices``, the strategies and the loaders) are all here,
in this one module (the entity, the loaders and the utilities are defined in
``fairscore._nervaluate_io``).

>>> from fairscore.nervaluate import Evaluator
>>> true = [["O", "B-PER", "I-PER", "O", "B-LOC"]]
>>> pred = [["O", "B-PER", "I-PER", "O", "B-ORG"]]
>>> results = Evaluator(true, pred, tags=["PER", "LOC", "ORG"], loader="list").evaluate()
>>> results["overall"]["strict"]
EvaluationResult(correct=1, incorrect=1, partial=0, missed=0, spurious=0, precision=0.5, recall=0.5, f1=0.5, actual=2, possible=2)
>>> results["overall"]["exact"].correct
2
>>> results["entities"]["LOC"]["strict"].missed, results["entities"]["ORG"]["strict"].spurious
(1, 1)
>>> results["overall_indices"]["strict"].incorrect_indices
[(0, 1)]

nervaluate's ``ent_type`` pairs a predicted entity with the overlapping gold entity of its own
label with the closest boundaries; the HIPE scorer, and :func:`fairscore.evaluate`, with the
first overlapping one. Both stay available: this module for nervaluate's numbers,
:func:`fairscore.evaluate` for the HIPE attribution (docs/nervaluate.md has an example where
they differ).
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass, fields
from typing import Any, Dict, List, Optional, Tuple, Union

from ._fairscore import _nervaluate_document
from ._nervaluate_io import (
    ConllLoader,
    DataLoader,
    DictLoader,
    Entity,
    ListLoader,
    clean_entities,
    collect_named_entities,
    conll_to_spans,
    find_overlap,
    list_to_spans,
    split_list,
)

__all__ = [
    "ConllLoader",
    "DataLoader",
    "DictLoader",
    "Entity",
    "EntityTypeEvaluation",
    "EvaluationIndices",
    "EvaluationResult",
    "EvaluationStrategy",
    "Evaluator",
    "ExactEvaluation",
    "ListLoader",
    "PartialEvaluation",
    "StrictEvaluation",
    "clean_entities",
    "collect_named_entities",
    "conll_to_spans",
    "find_overlap",
    "list_to_spans",
    "split_list",
]

_SCENARIOS = ("strict", "partial", "ent_type", "exact")  # the order of the results' dicts


# --- result objects -------------------------------------------------------------------------
@dataclass
class EvaluationResult:
    """The counts of one strategy (overall or for one label), with ``actual`` (correct +
    incorrect + partial + spurious), ``possible`` (correct + incorrect + partial + missed) and
    precision, recall and F1 (0, an ``int``, when undefined, as in nervaluate).

    >>> r = EvaluationResult(correct=1, partial=1, missed=1)
    >>> r.compute_metrics(partial_or_type=True)
    >>> r.precision, r.recall, r.actual, r.possible
    (0.75, 0.5, 2, 3)
    """

    correct: int = 0
    incorrect: int = 0
    partial: int = 0
    missed: int = 0
    spurious: int = 0
    precision: float = 0.0
    recall: float = 0.0
    f1: float = 0.0
    actual: int = 0
    possible: int = 0

    def compute_metrics(self, partial_or_type: bool = False) -> None:
        """Sets ``actual``, ``possible``, ``precision``, ``recall`` and ``f1`` from the counts;
        with ``partial_or_type`` (the ``partial`` and ``ent_type`` strategies) a partial match
        counts one half."""
        found = self.correct + self.incorrect + self.partial
        self.actual = found + self.spurious
        self.possible = found + self.missed
        hits = self.correct + 0.5 * self.partial if partial_or_type else self.correct
        p = hits / self.actual if self.actual > 0 else 0
        r = hits / self.possible if self.possible > 0 else 0
        self.precision, self.recall = p, r
        self.f1 = 2 * (p * r) / (p + r) if (p + r) > 0 else 0


@dataclass
class EvaluationIndices:
    """Where each outcome happened: ``(document, entity)`` pairs, the entity numbered among the
    predicted entities of the document (``missed``: among the gold entities) that are counted,
    i.e. of a label in ``tags`` (per label: of that label).

    >>> EvaluationIndices().missed_indices
    []
    """

    correct_indices: List[Tuple[int, int]] = None  # type: ignore[assignment]
    incorrect_indices: List[Tuple[int, int]] = None  # type: ignore[assignment]
    partial_indices: List[Tuple[int, int]] = None  # type: ignore[assignment]
    missed_indices: List[Tuple[int, int]] = None  # type: ignore[assignment]
    spurious_indices: List[Tuple[int, int]] = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        for f in fields(self):
            if getattr(self, f.name) is None:
                setattr(self, f.name, [])


# --- strategies -----------------------------------------------------------------------------
_KINDS = {"strict": 0, "partial": 1, "ent_type": 2, "exact": 3}  # _nervaluate_document's order


def _percentage(min_pct: Any) -> float:
    """``min_pct`` as the double the library compares with: a ``float`` (or ``int``, ``bool``)
    as Python compares it; another number only when it is a double exactly."""
    if isinstance(min_pct, float):
        return min_pct
    as_float = float(min_pct)
    if as_float != min_pct:
        raise ValueError(f"min_overlap_percentage {min_pct!r}: fairscore.nervaluate needs a float")
    return as_float


def _document(golds: list, preds: list, allowed: Any, used: Any, min_pct: Any, doc: Any):
    """One document evaluated by the library as nervaluate's ``Evaluator.evaluate`` evaluates
    it (docs/nervaluate.md; the same counting as ``fairscore evaluate --family spans
    --attribution nervaluate``): ``(overall, per_label)``, ``overall`` the outcomes of strict,
    partial, ent_type and exact over the entities whose label is ``in allowed`` (None: all),
    ``per_label`` ``[(label, outcomes)]`` for each label ``in used`` (None: none) that the
    document has, over that label's entities alone. An outcome is ``(correct, incorrect,
    partial, missed, spurious, correct_indices, incorrect_indices, partial_indices,
    missed_indices, spurious_indices)``, or None when the strategy divides by zero (a gold
    entity of length 0, ``end == start - 1``, reached across: nervaluate raises
    ``ZeroDivisionError``). Labels must be ``str`` and offsets integers of 64 bits
    (``ValueError`` otherwise)."""
    return _nervaluate_document(golds, preds, allowed, used, _percentage(min_pct), doc)


def _chosen(outcomes: list, kind: str) -> tuple:
    r = outcomes[_KINDS[kind]]
    if r is None:
        raise ZeroDivisionError("division by zero")
    return r


def _match(kind: str, golds: List[Entity], preds: List[Entity], min_pct: float, doc: Any):
    """One document under one strategy (all its entities), as :class:`EvaluationResult`
    (metrics computed) and :class:`EvaluationIndices`."""
    overall, _ = _document(golds, preds, None, None, min_pct, doc)
    r = _chosen(overall, kind)
    res, ix = EvaluationResult(*r[:5]), EvaluationIndices(*r[5:])
    res.compute_metrics(partial_or_type=kind in ("partial", "ent_type"))
    return res, ix


class EvaluationStrategy(ABC):
    """A way of counting; ``min_overlap_percentage`` (1 to 100) is the share of a gold
    entity's tokens a predicted entity must cover to be paired with it short of a match."""

    _kind = ""

    def __init__(self, min_overlap_percentage: float = 1.0):
        if not 1.0 <= min_overlap_percentage <= 100.0:
            raise ValueError("min_overlap_percentage must be between 1.0 and 100.0")
        self.min_overlap_percentage = min_overlap_percentage

    @abstractmethod
    def evaluate(
        self, true_entities: List[Entity], pred_entities: List[Entity], tags: List[str], instance_index: int = 0
    ) -> Tuple[EvaluationResult, EvaluationIndices]:
        """The counts and indices of one document (``tags`` is not used)."""


class _Strategy(EvaluationStrategy):
    def evaluate(self, true_entities, pred_entities, tags, instance_index=0):
        return _match(self._kind, true_entities, pred_entities, self.min_overlap_percentage, instance_index)


class StrictEvaluation(_Strategy):
    """Correct: same offsets and label; incorrect: an overlap otherwise.

    >>> StrictEvaluation().evaluate([Entity("PER", 0, 1)], [Entity("LOC", 0, 1)], ["PER", "LOC"])[0].incorrect
    1
    """

    _kind = "strict"


class PartialEvaluation(_Strategy):
    """Correct: same offsets, whatever the labels; partial: an overlap otherwise (counts 1/2)."""

    _kind = "partial"


class EntityTypeEvaluation(_Strategy):
    """Correct: an overlap with a gold entity of the same label (the closest one: least
    |start difference| + |end difference|); incorrect: an overlap with another label only.
    The HIPE scorer (:func:`fairscore.evaluate`) takes the first overlapping gold entity."""

    _kind = "ent_type"


class ExactEvaluation(_Strategy):
    """Correct: same offsets, whatever the labels; incorrect: an overlap otherwise."""

    _kind = "exact"


# --- the evaluator --------------------------------------------------------------------------
class Evaluator:
    """nervaluate's evaluator.

    ``true`` and ``pred`` are read by ``loader``: ``"list"`` (lists of tags), ``"conll"`` (a
    string), ``"dict"`` (lists of span dicts) or ``"default"`` (chosen from ``true``: a string
    is CoNLL, a list of lists of dicts spans, another list of lists tags). Entities whose
    label is not in ``tags`` are left out. ``min_overlap_percentage`` (1 to 100): the share of
    a gold entity's tokens a predicted entity must cover to be paired with it.

    >>> true = [[{"label": "PER", "start": 0, "end": 1}], []]
    >>> pred = [[{"label": "PER", "start": 1, "end": 1}], [{"label": "LOC", "start": 4, "end": 4}]]
    >>> ev = Evaluator(true, pred, tags=["PER", "LOC"])
    >>> r = ev.evaluate()["overall"]
    >>> r["partial"].partial, r["strict"].incorrect, r["ent_type"].correct, r["strict"].spurious
    (1, 1, 1, 1)
    >>> Evaluator(true, pred, ["PER"], min_overlap_percentage=60).evaluate()["overall"]["partial"].missed
    1
    >>> print(ev.results_to_csv(mode="entities", scenario="exact").splitlines()[0])
    Entity,Correct,Incorrect,Partial,Missed,Spurious,Precision,Recall,F1-Score
    """

    def __init__(
        self, true: Any, pred: Any, tags: List[str], loader: str = "default", min_overlap_percentage: float = 1.0
    ) -> None:
        self.tags = tags
        self.min_overlap_percentage = min_overlap_percentage
        self.loaders: Dict[str, DataLoader] = {"conll": ConllLoader(), "list": ListLoader(), "dict": DictLoader()}
        self._load_data(true, pred, loader)
        self.strategies: Dict[str, EvaluationStrategy] = {
            "strict": StrictEvaluation(min_overlap_percentage),
            "partial": PartialEvaluation(min_overlap_percentage),
            "ent_type": EntityTypeEvaluation(min_overlap_percentage),
            "exact": ExactEvaluation(min_overlap_percentage),
        }

    def _load_data(self, true: Any, pred: Any, loader: str) -> None:
        if loader == "default":
            if isinstance(true, str):
                loader = "conll"
            elif isinstance(true, list) and true and isinstance(true[0], list):
                loader = "dict" if isinstance(true[0][0], dict) else "list"
            else:
                raise ValueError("Could not infer loader from input type")
        if loader not in self.loaders:
            raise ValueError(f"Unknown loader: {loader}")
        if loader == "list":
            if len(true) != len(pred):
                raise ValueError("Number of predicted documents does not equal true")
            for i, (t, p) in enumerate(zip(true, pred)):
                if len(t) != len(p):
                    raise ValueError(f"Document {i} has different lengths: true={len(t)}, pred={len(p)}")
        self.true = self.loaders[loader].load(true)
        self.pred = self.loaders[loader].load(pred)
        if len(self.true) != len(self.pred):
            raise ValueError("Number of predicted documents does not equal true")

    def evaluate(self) -> Dict[str, Any]:
        """``{"overall": {strategy: EvaluationResult}, "entities": {label: {strategy:
        EvaluationResult}}, "overall_indices": {strategy: EvaluationIndices},
        "entity_indices": {label: {strategy: EvaluationIndices}}}``; the labels are those of
        ``tags`` found on either side (in the order of a set, as nervaluate's); no documents,
        no strategies. Every call counts anew and returns new objects."""
        tags = self.tags
        used: set = set()
        for doc in self.true:
            used.update(e.label for e in doc)
        for doc in self.pred:
            used.update(e.label for e in doc)
        used = used.intersection(set(tags))
        allowed = tags if isinstance(tags, str) else set(tags)

        overall: Dict[str, EvaluationResult] = {}
        overall_ix: Dict[str, EvaluationIndices] = {}
        per: Dict[str, Dict[str, EvaluationResult]] = {t: {} for t in used}
        per_ix: Dict[str, Dict[str, EvaluationIndices]] = {t: {} for t in used}
        if self.true:
            for name in self.strategies:
                overall[name], overall_ix[name] = EvaluationResult(), EvaluationIndices()
                for t in used:
                    per[t][name], per_ix[t][name] = EvaluationResult(), EvaluationIndices()

        for d, (golds, preds) in enumerate(zip(self.true, self.pred)):
            counted = _Counted(self.strategies, golds, preds, allowed, used, tags, d)
            # In nervaluate's order: every strategy overall, then per label.
            for name in self.strategies:
                _add(overall[name], overall_ix[name], counted.outcome(name, None))
            for t in counted.labels():
                for name in self.strategies:
                    _add(per[t][name], per_ix[t][name], counted.outcome(name, t))

        for name in self.strategies:
            half = name in ("partial", "ent_type")
            if name in overall:
                overall[name].compute_metrics(partial_or_type=half)
            for t in used:
                if name in per[t]:
                    per[t][name].compute_metrics(partial_or_type=half)
        return {"overall": overall, "entities": per, "overall_indices": overall_ix, "entity_indices": per_ix}

    # --- reports --------------------------------------------------------------------------
    @staticmethod
    def _check_report_args(mode: str, scenario: str) -> None:
        # (The order of the sets in the messages varies between Python processes, as nervaluate's.)
        modes = {"overall", "entities"}
        scenarios = {"strict", "ent_type", "partial", "exact"}
        if mode not in modes:
            raise ValueError(f"Invalid mode: must be one of {modes}")
        if mode == "entities" and scenario not in scenarios:
            raise ValueError(f"Invalid scenario: must be one of {scenarios}")

    def results_to_csv(
        self, mode: str = "overall", scenario: str = "strict", file_path: Optional[str] = None
    ) -> Union[str, None]:
        """The results as CSV: one row per strategy (``mode="overall"``) or per label for one
        ``scenario`` (``mode="entities"``); written to ``file_path`` (returning None) or
        returned as a string."""
        import csv
        import io

        self._check_report_args(mode, scenario)
        results = self.evaluate()
        head = ["Correct", "Incorrect", "Partial", "Missed", "Spurious", "Precision", "Recall", "F1-Score"]
        if mode == "overall":
            rows = [["Strategy", *head]] + [[name, *_row(r)] for name, r in results["overall"].items()]
        else:
            rows = [["Entity", *head]] + [
                [label, *_row(by[scenario])] for label, by in results["entities"].items() if scenario in by
            ]
        if file_path:
            with open(file_path, "w", newline="", encoding="utf-8") as f:
                csv.writer(f).writerows(rows)
            return None
        buf = io.StringIO()
        csv.writer(buf).writerows(rows)
        return buf.getvalue()

    def summary_report(self, mode: str = "overall", scenario: str = "strict", digits: int = 2) -> str:
        """A text table: the four strategies (``mode="overall"``, in alphabetical order) or
        the labels, sorted, for one ``scenario`` (``mode="entities"``); P, R and F1 with
        ``digits`` decimals."""
        self._check_report_args(mode, scenario)
        results = self.evaluate()
        if mode == "overall":
            rows = [(s, results["overall"][s]) for s in sorted(_SCENARIOS) if s in results["overall"]]
        else:
            ents = results["entities"]
            rows = [(label, ents[label][scenario]) for label in sorted(ents) if scenario in ents[label]]
        width = max(max(len(str(n)) for n in ["correct"] + [n for n, _ in rows]), digits)
        headers = ["correct", "incorrect", "partial", "missed", "spurious", "precision", "recall", "f1-score"]
        out = f"Scenario: {scenario if mode == 'entities' else 'all'}\n\n"
        out += f"{'':>{width}s} " + "".join(f" {h:>11}" for h in headers) + "\n\n"
        for name, r in rows:
            out += f"{name:>{width}s} " + "".join(f" {v:>11}" for v in _row(r)[:5])
            out += "".join(f" {v:>11.{digits}f}" for v in _row(r)[5:]) + "\n"
        return out

    def summary_report_indices(self, mode: str = "overall", scenario: str = "strict", colors: bool = False) -> str:
        """Which predicted entity (document, index) fell in which category, for ``scenario``:
        overall or per label (``mode="entities"``); ``colors`` adds ANSI colours. As in
        nervaluate, an index is looked up in the unfiltered predicted entities of the document
        (a missed entity's index is a gold entity's)."""
        self._check_report_args(mode, scenario)

        def paint(text: str, color: str) -> str:
            return f"{_ANSI[color]}{text}{_ANSI['reset']}" if colors else text

        results = self.evaluate()
        head = paint(f"{'Category':<20} {'Instance':<10} {'Entity':<8} {'Details':<25}", "bold") + "\n"
        head += paint("-" * 78, "white") + "\n"

        def table(ix: EvaluationIndices) -> str:
            text = ""
            for f in fields(ix):
                if not f.name.endswith("_indices"):
                    continue
                name = f.name[: -len("_indices")].replace("_", " ").capitalize()
                cat = paint(name, _CATEGORY_COLORS.get(name, "white"))
                pairs = getattr(ix, f.name)
                if not pairs:
                    text += f"{cat:<20} {'-':<10} {'-':<8} {'None':<10}\n"
                for doc, k in pairs:
                    if self.pred != [[]]:
                        e = self.pred[doc][k]
                        if isinstance(e, Entity):
                            info = f"Label={e.label}, Start={e.start}, End={e.end}"
                        else:
                            info = f"Tag={e}"
                    else:
                        info = "No prediction info"
                    text += f"{cat:<20} {str(doc):<10} {str(k):<8} {info:<10}\n"
            return text

        if mode == "overall":
            ix = results["overall_indices"][scenario]
            title = f"\n{paint('Indices for error schema', 'bold')} '{paint(scenario, 'cyan')}':\n\n"
            return title + head + table(ix)
        out = ""
        for label, by in results["entity_indices"].items():
            out += f"\n{paint('Entity Type', 'bold')}: {paint(label, 'cyan')}\n"
            out += f"{paint('Error Schema', 'bold')}: '{paint(scenario, 'cyan')}'\n\n" + head
            out += table(by[scenario])
        return out


def _native(strategy: EvaluationStrategy) -> bool:
    """Whether the library counts ``strategy``: one of this module's four, not overridden."""
    return isinstance(strategy, _Strategy) and type(strategy).evaluate is _Strategy.evaluate


class _Counted:
    """The outcomes of one document for every strategy, overall and per label (each as
    :func:`_document` gives it): this module's strategies counted by the library, once for
    all those of one ``min_overlap_percentage``; a strategy of one's own by its ``evaluate``,
    called when its outcome is asked for, on the entities nervaluate would give it."""

    def __init__(self, strategies, golds, preds, allowed, used, tags, d):
        self.strategies, self.golds, self.preds = strategies, golds, preds
        self.allowed, self.used, self.tags, self.d = allowed, used, tags, d
        self.done: Dict[Any, tuple] = {}
        self.groups: Optional[tuple] = None

    def _library(self, min_pct: Any) -> tuple:
        if min_pct not in self.done:
            overall, per = _document(self.golds, self.preds, self.allowed, self.used, min_pct, self.d)
            self.done[min_pct] = (overall, dict(per))
        return self.done[min_pct]

    def _grouped(self) -> tuple:
        """For strategies of one's own: the document's entities of the listed labels, and
        those of each used label, by label in order of appearance (gold first)."""
        if self.groups is None:
            golds = [e for e in self.golds if e.label in self.allowed]
            preds = [e for e in self.preds if e.label in self.allowed]
            by_label: Dict[str, Tuple[list, list]] = {}
            for side, ents in ((0, golds), (1, preds)):
                for e in ents:
                    if e.label in self.used:
                        by_label.setdefault(e.label, ([], []))[side].append(e)
            self.groups = (golds, preds, by_label)
        return self.groups

    def labels(self) -> list:
        """The used labels the document has, in order of appearance (gold first)."""
        for strategy in self.strategies.values():
            if _native(strategy):
                return list(self._library(strategy.min_overlap_percentage)[1])
        return list(self._grouped()[2]) if self.strategies else []

    def outcome(self, name: str, label: Optional[str]) -> tuple:
        """The outcome of strategy ``name`` overall (``label`` None) or for ``label``."""
        strategy = self.strategies[name]
        if _native(strategy):
            overall, per = self._library(strategy.min_overlap_percentage)
            return _chosen(overall if label is None else per[label], strategy._kind)
        golds, preds, by_label = self._grouped()
        if label is None:
            res, ix = strategy.evaluate(golds, preds, self.tags, self.d)
        else:
            res, ix = strategy.evaluate(*by_label[label], [label], self.d)
        return (res.correct, res.incorrect, res.partial, res.missed, res.spurious,
                *(getattr(ix, f.name) for f in fields(ix)))


def _add(total: EvaluationResult, total_ix: EvaluationIndices, r: tuple) -> None:
    total.correct += r[0]
    total.incorrect += r[1]
    total.partial += r[2]
    total.missed += r[3]
    total.spurious += r[4]
    total_ix.correct_indices.extend(r[5])
    total_ix.incorrect_indices.extend(r[6])
    total_ix.partial_indices.extend(r[7])
    total_ix.missed_indices.extend(r[8])
    total_ix.spurious_indices.extend(r[9])


def _row(r: EvaluationResult) -> list:
    return [r.correct, r.incorrect, r.partial, r.missed, r.spurious, r.precision, r.recall, r.f1]


_ANSI = {
    "reset": "\033[0m",
    "bold": "\033[1m",
    "red": "\033[91m",
    "green": "\033[92m",
    "yellow": "\033[93m",
    "blue": "\033[94m",
    "magenta": "\033[95m",
    "cyan": "\033[96m",
    "white": "\033[97m",
}
_CATEGORY_COLORS = {
    "Correct": "green",
    "Incorrect": "red",
    "Partial": "yellow",
    "Missed": "magenta",
    "Spurious": "blue",
}
