"""Type hints of the fairscore package (the functions are implemented in Rust, ``fairscore._fairscore``)."""

import os
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, Union, overload

from . import nervaluate as nervaluate
from . import seqeval as seqeval
from .ids import from_ids as from_ids, tags_from_ids as tags_from_ids

__version__: str
#: The directory of fairscore's Hugging Face ``evaluate`` metric module.
HF_METRIC_PATH: str

StrPath = Union[str, "os.PathLike[str]"]
#: A comma-separated list as one string (``"1,3"``, ``"fuzzy,strict"``) or as a list.
ListArg = Union[str, int, Sequence[Union[str, int]]]

class FairscoreError(Exception):
    """Base class of fairscore's errors. ``str(e)`` is the CLI's one-line message."""

    #: The file concerned (``"y_true"``/``"y_pred"`` for :func:`evaluate`); None for usage errors.
    file: Optional[str]
    #: The 1-based line (for :func:`evaluate`, the 1-based sequence); 0 means the file as a
    #: whole; None when there is no file.
    line: Optional[int]
    #: What is wrong, without file and line.
    message: str

class UsageError(FairscoreError):
    """A wrong option or option value (the CLI's exit status 2)."""

class InputError(FairscoreError):
    """An input is missing, unreadable or malformed, or gold and run do not line up (exit 3)."""

class OutputError(FairscoreError):
    """An output could not be written (exit 4)."""

def score(
    ref: StrPath,
    pred: StrPath,
    task: Literal["nerc_coarse", "nerc_fine", "nel"],
    edition: Literal["hipe-2020", "hipe-2022"] = "hipe-2020",
    *,
    skip_check: bool = False,
    original_nel: bool = False,
    n_best: Optional[ListArg] = None,
    noise_level: Optional[ListArg] = None,
    time_period: Optional[ListArg] = None,
    glue: Optional[ListArg] = None,
    tagset: Optional[StrPath] = None,
    suffix: Optional[str] = None,
    relaxed: Optional[StrPath] = None,
    regimes: Optional[ListArg] = None,
    weights: Optional[str] = None,
    format: Literal["hipe", "conll"] = "hipe",
    column: Optional[Union[str, int]] = None,
    bootstrap: Optional[int] = None,
    seed: Optional[int] = None,
    confidence: Optional[float] = None,
    **options: Any,
) -> Dict[str, Any]:
    """Score one run as ``fairscore score`` (the official HIPE scorer v2.0) and return the JSON
    it writes, as Python objects: ``{column: {period: {noise: {label|"ALL": {regime: {...}}}}}}``
    (for ``task="nel"`` with several ``n_best`` cutoffs, the CLI's per-cutoff layout).

    Keyword options are the CLI's flags: ``skip_check=True`` is ``--skip-check``,
    ``n_best=[1, 3]`` is ``--n_best 1,3``, ``regimes=["fuzzy", "strict", "fair"]`` is
    ``--regimes fuzzy,strict,fair``, ``format="conll"`` scores CoNLL files. Nothing is
    written. What the official scorer silently patches is reported as ``UserWarning``.
    Unless ``skip_check``, ``pred``'s file name must follow the edition's convention.
    """

def fair(
    target: StrPath,
    system: StrPath,
    format: Literal[
        "auto", "spans", "conll", "hipe", "brat", "doccano", "labelstudio", "prodigy"
    ] = "auto",
    *,
    column: Optional[ListArg] = None,
    focus: Literal["target", "system"] = "target",
    weights: Optional[str] = None,
    labels: Optional[ListArg] = None,
    exclude: Optional[ListArg] = None,
    ignore_punct: bool = False,
    continuation: Literal["conlleval", "reference"] = "conlleval",
    **options: Any,
) -> Dict[str, Any]:
    """Fair evaluation (Ortmann 2022) of span, CoNLL, HIPE or standoff files, as ``fairscore
    fair --json -``: the fair family's result tables (``traditional``, ``fair`` with BES, BEL,
    BEO, ``weighted`` with ``weights=``, ``confusion``); ``bootstrap=N`` adds intervals,
    ``errors=PATH`` writes the span listing (``column`` defaults to ``NE-COARSE-LIT``)."""

def check(
    ref: StrPath,
    pred: StrPath,
    task: Optional[Literal["nerc_coarse", "nerc_fine", "nel"]] = None,
    edition: Literal["hipe-2020", "hipe-2022"] = "hipe-2020",
    *,
    tagset: Optional[StrPath] = None,
    skip_check: bool = False,
    **options: Any,
) -> List[Dict[str, Any]]:
    """The participant self-check (``fairscore check --json``): the list of findings, each
    ``{"severity", "code", "file", "line", "column", "message", "hint", "count", "places"}``. An empty
    list (or notes only) means the run would be scored as intended."""

def normalize(
    input: StrPath,
    output: Optional[StrPath] = None,
    *,
    norm_time: bool = False,
    norm_histo: bool = False,
    map: Optional[StrPath] = None,
    union_interleave: bool = False,
    edition: Literal["hipe-2020", "hipe-2022"] = "hipe-2020",
    **options: Any,
) -> str:
    """Normalize entity links as ``fairscore normalize`` (the official normalize_linking.py).
    Returns the normalized text; with ``output`` also writes it there atomically."""

def segmentation(
    gold: StrPath,
    pred: StrPath,
    format: Literal["auto", "text", "conllu"] = "auto",
    *,
    beta: Optional[float] = None,
    **options: Any,
) -> Dict[str, Any]:
    """Word segmentation (Shao et al. 2017) as ``fairscore segmentation --json -``: the
    segmentation family's result tables (``segmentation``: words and boundaries with TP, gold,
    pred, P, R, F1, TNR; ``totals``), as :func:`family` gives them. ``bootstrap=N`` (``seed``,
    ``confidence``) adds intervals over sentences. Every keyword is a CLI flag (``--beta`` is
    ``beta=``)."""

def tagging(
    gold: StrPath,
    pred: StrPath,
    format: Literal["auto", "conllu", "tsv"] = "auto",
    *,
    column: Optional[Union[str, int]] = None,
    tagset: Optional[StrPath] = None,
    beta: Optional[float] = None,
    **options: Any,
) -> Dict[str, Any]:
    """Tagging beyond accuracy as ``fairscore tagging --json -`` (``tagset``: a file, path-like,
    or ``"nkjp"``): the tagging family's result tables (``tagging``: one row per function with
    P, R, F1, WC, SC; ``totals``). ``bootstrap=N`` adds intervals over sentences."""

def leaderboard(
    gold_dir: StrPath,
    runs_dir: StrPath,
    resources: StrPath,
    outdir: StrPath,
    *,
    preset: Optional[Literal["hipe-2022", "hipe-2020"]] = None,
    campaign: Optional[StrPath] = None,
    threads: Optional[int] = None,
    inspect: bool = False,
    **options: Any,
) -> Dict[str, Any]:
    """Score a whole campaign as ``fairscore leaderboard``, writing the same files under
    ``outdir``; returns ``{"campaign", "ok", "scored", "failed", "rejected", "not_evaluated",
    "rankings", "jobs", "run_files", "removed", "inspect"}``. ``inspect=True`` writes each
    run's error page per NERC output, as ``--inspect`` (``inspect``: their paths in
    ``outdir``); ``bootstrap=N`` (``seed``, ``confidence``) as ``--bootstrap``. A campaign
    file's ``breakdown`` and ``train`` apply as in the CLI."""

def muc(
    reference: StrPath,
    pred: StrPath,
    *,
    format: Literal["auto", "hipe", "conll", "brat", "doccano", "labelstudio", "prodigy"] = "auto",
    column: Optional[str] = None,
    beta: Optional[float] = None,
    judgements: Optional[StrPath] = None,
    **options: Any,
) -> Dict[str, Any]:
    """MUC-7 token-by-token judgement as ``fairscore muc --json -``: the muc family's result
    table (``muc``: a row per type, ``ALL`` and ``macro`` with COR, INC, PAR, MIS, SPU, POS,
    ACT, P, R, F). ``bootstrap=N`` adds intervals; ``judgements=PATH`` also writes the
    per-token listing there."""

def family(name: Literal["spans", "fair", "muc", "segmentation", "tagging"], gold: StrPath, pred: StrPath, **options: Any) -> Dict[str, Any]:
    """Any metric family on two files, as ``fairscore evaluate --family NAME --json -``:
    ``{"family", "unit", "units", "resampling"?, "notes", "warnings", "tables": [{"name",
    "title", "keys", "columns", "rows": [{"key", "scores", "ci"?}]}]}``, scores as fractions.
    Options are the CLI's flags: ``format``, ``column``, ``beta``, ``tagset``, ``regimes``,
    ``weights``, ``labels``, ``exclude``, ``focus``, ``continuation``, ``ignore_punct``,
    ``bootstrap``, ``seed``, ``confidence``.

    >>> import fairscore, pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "g.txt").write_text("ab c\\nd ef\\n"); _ = (d / "p.txt").write_text("ab c\\nde f\\n")
    >>> r = fairscore.family("segmentation", d / "g.txt", d / "p.txt")
    >>> r["tables"][0]["rows"][0]["scores"]["F1"]
    0.5
    """

def compare(gold: StrPath, a: StrPath, b: StrPath, **options: Any) -> Dict[str, Any]:
    """Compare run ``a`` with run ``b`` on the same gold, as ``fairscore compare --json -``:
    HIPE or CoNLL runs as :func:`score` scores them (``task``, ``hipe_edition``, ``format``,
    ``regimes``, …), or any family's runs with ``family="segmentation"`` etc. ``bootstrap``
    is the number of resamples (default 10,000), ``test`` ``"permutation"`` or
    ``"bootstrap"``, ``seed`` and ``confidence`` as in the CLI."""

def mentions(
    gold: Sequence[Union[Mapping[str, Any], Sequence[Any]]],
    predictions: Sequence[Union[Mapping[str, Any], Sequence[Any], str]],
    preset: Optional[Literal["universalner", "gollie", "instructuie"]] = None,
    **options: Any,
) -> Dict[str, Any]:
    """The ``mentions`` family (docs/generative.md) on lists in memory, for evaluation inside a
    generation loop: the dict :func:`family` returns for ``"mentions"`` on the same records in
    files. ``gold``: units as dicts ``{"id", "text", "entities"}`` (a gold JSONL line) or entity
    lists (units without text, ids ``"1"``, ``"2"``, …); ``predictions``: entity lists
    (``["Obama", ["Hawaii", "location"], {"text": …, "type": …}]``), raw answer strings
    (read by ``parser``) or dicts as a run's JSONL lines; without ``id`` they pair with the
    gold by order (a ``set`` or ``frozenset``, whose order follows ``PYTHONHASHSEED``, is a
    ``TypeError``). ``preset`` and the options are the family's (``unit``, ``match``,
    ``normalize``, ``typed``, ``align``, ``parser``, ``schema``, ``unfound``, ``kb``,
    ``labels``, ``beta``, ``bootstrap``, ``seed``, ``confidence``).

    >>> import fairscore
    >>> gold = [{"id": "s1", "text": "Obama was in Hawaii.", "entities": [["Obama", "person"], ["Hawaii", "location"]]}]
    >>> r = fairscore.mentions(gold, ['[["obama", "person"], ["Hawaii", "location"]]'], normalize="case")
    >>> r["tables"][0]["rows"][0]["scores"]["F1"]
    1.0
    """

Regime = Literal["strict", "ent_type", "partial", "exact"]

def evaluate(
    y_true: Sequence[Sequence[str]],
    y_pred: Sequence[Sequence[str]],
    scheme: Literal["IOB1", "IOB2", "IOE1", "IOE2", "IOBES"] = "IOB2",
    beta: float = 1.0,
) -> Dict[str, Dict[str, Dict[str, Union[int, float]]]]:
    """Score run tags against gold tags (one list per sentence or document) in every regime.

    Returns ``{regime: {label or "ALL": counts and scores}}`` for ``strict``, ``ent_type``,
    ``partial`` and ``exact`` (keys ``correct``, ``incorrect``, ``partial``, ``missed``,
    ``spurious``, ``possible``, ``actual``, ``P``, ``R``, ``F1``; ``F1`` is F-beta) and
    ``fair`` (keys ``TP``, ``FP``, ``FN``, ``LE``, ``BE``, ``BES``, ``BEL``, ``BEO``, ``LBE``,
    ``TP_weighted``, ``FP_weighted``, ``FN_weighted`` (LE, BE and LBE as half FP and half
    FN), ``P``, ``R``, ``F1``), with the names of the CLI's JSON.

    The numbers are those of ``fairscore score --format conll`` on the same tags written as
    CoNLL (one ``w TAG`` line per token, a blank line after each sequence), with every run
    label evaluated. Strict ``ALL`` equals seqeval's default mode (micro P, R, F1). Per label,
    the HIPE counting attributes a wrongly typed entity to the gold label (seqeval counts it
    as a miss for the gold type and a false positive for the run type: see
    :func:`classification_report` for seqeval's per-type numbers).
    """

@overload
def classification_report(
    y_true: Sequence[Sequence[str]],
    y_pred: Sequence[Sequence[str]],
    digits: int = 2,
    output_dict: Literal[False] = False,
    *,
    scheme: Literal["IOB1", "IOB2", "IOE1", "IOE2", "IOBES"] = "IOB2",
    beta: float = 1.0,
) -> str: ...
@overload
def classification_report(
    y_true: Sequence[Sequence[str]],
    y_pred: Sequence[Sequence[str]],
    digits: int = 2,
    output_dict: Literal[True] = ...,
    *,
    scheme: Literal["IOB1", "IOB2", "IOE1", "IOE2", "IOBES"] = "IOB2",
    beta: float = 1.0,
) -> Dict[str, Dict[str, Union[int, float]]]: ...
