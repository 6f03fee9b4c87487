"""nervaluate 1.2.1's inputs for :mod:`fairscore.nervaluate`: the :class:`Entity`, the
loaders (lists of tags, a CoNLL string, span dicts) and the utilities nervaluate users import
(``split_list``, ``collect_named_entities``, ``list_to_spans``, ``conll_to_spans``,
``find_overlap``, ``clean_entities``). Everything here is re-exported by
:mod:`fairscore.nervaluate`, which users import; the counting is the library's."""

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

__all__ = [
    "ConllLoader",
    "DataLoader",
    "DictLoader",
    "Entity",
    "ListLoader",
    "clean_entities",
    "collect_named_entities",
    "conll_to_spans",
    "find_overlap",
    "list_to_spans",
    "split_list",
]


# --- entities -------------------------------------------------------------------------------
@dataclass
class Entity:
    """An entity: its label and its first and last token (``end`` is inclusive).

    >>> Entity("PER", 1, 2) == Entity(label="PER", start=1, end=2)
    True
    """

    label: str
    start: int
    end: int

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Entity):
            return NotImplemented
        return (self.label, self.start, self.end) == (other.label, other.start, other.end)

    def __hash__(self) -> int:
        return hash((self.label, self.start, self.end))


# --- loaders --------------------------------------------------------------------------------
def _entities(tagged, n: int, checked: bool, typed: bool = False) -> List[Entity]:
    """Entities of ``(offset, tag)`` pairs as nervaluate reads them: ``O`` ends an entity; any
    other tag continues the open entity when its type (``tag[2:]``) is the same and it does
    not begin with ``B``, and otherwise starts one (``checked``: it must begin with ``B-`` or
    ``I-``); an entity open at the end ends at offset ``n - 1``. ``typed``: tags must be str."""
    out = []
    label = None
    start = 0
    for off, tag in tagged:
        if typed and not isinstance(tag, str):
            raise ValueError(f"Invalid tag type: {type(tag)}")
        if tag == "O":
            if label is not None:
                out.append(Entity(label, start, off - 1))
                label = None
            continue
        kind = tag[2:]
        if label is not None:
            if kind == label and tag[:1] != "B":
                continue
            out.append(Entity(label, start, off - 1))
        if checked and not (tag.startswith("B-") or tag.startswith("I-")):
            raise ValueError(f"Invalid tag format: {tag}")
        label, start = kind, off
    if label is not None:
        out.append(Entity(label, start, n - 1))
    return out


class DataLoader(ABC):
    """Reads one side (gold or predicted) into one list of :class:`Entity` per document."""

    @abstractmethod
    def load(self, data: Any) -> List[List[Entity]]:
        """The entities of each document."""


class ConllLoader(DataLoader):
    """A string of ``token<TAB>tag`` lines, documents separated by a blank line. Offsets are
    line numbers within the document (lines of white space are skipped but numbered).

    >>> ConllLoader().load("a\\tB-PER\\nb\\tI-PER\\n\\nc\\tO\\n")
    [[Entity(label='PER', start=0, end=1)], []]
    """

    def load(self, data: str) -> List[List[Entity]]:
        if not isinstance(data, str):
            raise ValueError("ConllLoader expects string input")
        if not data:
            return []
        out = []
        for doc in data.rstrip().split("\n\n"):
            if not doc.strip():
                out.append([])
                continue
            lines = doc.split("\n")
            out.append(_entities(_conll_tags(lines), len(lines), checked=True))
        return out


def _conll_tags(lines):
    for off, line in enumerate(lines):
        if not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) < 2:
            raise ValueError(f"Invalid CoNLL format: line '{line}' does not contain a tab separator")
        yield off, cells[1]


class ListLoader(DataLoader):
    """A list of documents, each a list of tags (``O``, ``B-X``, ``I-X``).

    >>> ListLoader().load([["B-PER", "I-PER", "O", "I-LOC"]])
    [[Entity(label='PER', start=0, end=1), Entity(label='LOC', start=3, end=3)]]
    """

    def load(self, data: List[List[str]]) -> List[List[Entity]]:
        if not isinstance(data, list):
            raise ValueError("ListLoader expects list input")
        out = []
        for doc in data:
            if not isinstance(doc, list):
                raise ValueError("Each document must be a list of tags")
            out.append(_entities(enumerate(doc), len(doc), checked=True, typed=True))
        return out


class DictLoader(DataLoader):
    """A list of documents, each a list of ``{"label": str, "start": int, "end": int}``
    (other keys are ignored; ``end`` is inclusive).

    >>> DictLoader().load([[{"label": "PER", "start": 2, "end": 3, "text": "Ada Lovelace"}]])
    [[Entity(label='PER', start=2, end=3)]]
    """

    def load(self, data: List[List[Dict[str, Any]]]) -> List[List[Entity]]:
        if not isinstance(data, list):
            raise ValueError("DictLoader expects list input")
        out = []
        for doc in data:
            if not isinstance(doc, list):
                raise ValueError("Each document must be a list of entity dictionaries")
            ents = []
            for span in doc:
                if not isinstance(span, dict):
                    raise ValueError(f"Invalid entity type: {type(span)}")
                keys = {"label", "start", "end"}
                if not all(k in span for k in keys):
                    raise ValueError(f"Entity missing required keys: {keys}")
                if not isinstance(span["label"], str):
                    raise ValueError("Entity label must be a string")
                if not isinstance(span["start"], int) or not isinstance(span["end"], int):
                    raise ValueError("Entity start and end must be integers")
                ents.append(Entity(span["label"], span["start"], span["end"]))
            out.append(ents)
        return out


# --- utilities ------------------------------------------------------------------------------
def split_list(token: List[str], split_chars: Optional[List[str]] = None) -> List[List[str]]:
    """Splits a list at the items in ``split_chars`` (default ``[""]``); as nervaluate's, a
    split item at the very end opens no further (empty) part.

    >>> split_list(["a", "b", "", "c"])
    [['a', 'b'], ['c']]
    >>> split_list(["a", "", "b", ""])
    [['a'], ['b']]
    """
    seps = [""] if split_chars is None else split_chars
    out: List[List[str]] = []
    part: List[str] = []
    last = len(token) - 1
    for i, item in enumerate(token):
        if item in seps:
            out.append(part)
            part = []
        else:
            part.append(item)
            if i == last:
                out.append(part)
    return out


def collect_named_entities(tokens: List[str]) -> List[Dict[str, Any]]:
    """The entities of one list of tags as ``{"label", "start", "end"}`` dicts, read as the
    loaders read them but without checking the prefixes (``X`` starts an entity of label ``""``).

    >>> collect_named_entities(["O", "B-PER", "I-PER", "B-LOC"])
    [{'label': 'PER', 'start': 1, 'end': 2}, {'label': 'LOC', 'start': 3, 'end': 3}]
    """
    ents = _entities(enumerate(tokens), len(tokens), checked=False)
    return [{"label": e.label, "start": e.start, "end": e.end} for e in ents]


def list_to_spans(doc: List[List[str]]) -> List[List[Dict[str, Any]]]:
    """:func:`collect_named_entities` of each list of tags.

    >>> list_to_spans([["B-PER"], ["O", "I-LOC"]])
    [[{'label': 'PER', 'start': 0, 'end': 0}], [{'label': 'LOC', 'start': 1, 'end': 1}]]
    """
    return [collect_named_entities(tokens) for tokens in doc]


def conll_to_spans(doc: str) -> List[List[Dict[str, Any]]]:
    """The spans of a CoNLL string (``token<TAB>tag`` lines, an empty line between documents),
    as :func:`list_to_spans` reads the tags.

    >>> conll_to_spans("a\\tB-PER\\nb\\tO\\n\\nc\\tB-LOC")
    [[{'label': 'PER', 'start': 0, 'end': 0}], [{'label': 'LOC', 'start': 0, 'end': 0}]]
    """
    return list_to_spans([[line.split("\t")[1] for line in part] for part in split_list(doc.split("\n"))])


def find_overlap(true_range: range, pred_range: range) -> set:
    """The values two ranges share.

    >>> find_overlap(range(1, 3), range(2, 4))
    {2}
    """
    return set(true_range) & set(pred_range)


def clean_entities(ent: dict) -> dict:
    """Only ``start``, ``end`` and ``label`` of a span dict (as Prodigy's carry more keys).

    >>> clean_entities({"label": "PER", "start": 0, "end": 1, "token_start": 0})
    {'start': 0, 'end': 1, 'label': 'PER'}
    """
    return {"start": ent["start"], "end": ent["end"], "label": ent["label"]}
