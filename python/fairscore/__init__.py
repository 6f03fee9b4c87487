"""fairscore: scoring of NERC and entity-linking runs (HIPE TSV, CoNLL), fair evaluation
(Ortmann 2022) and seqeval-compatible reports, computed by the Rust library (no subprocess;
the GIL is released while scoring).

Functions on files mirror the CLI's commands and flags: :func:`score`, :func:`fair`,
:func:`check`, :func:`normalize`, :func:`muc`, :func:`segmentation`, :func:`tagging`,
:func:`leaderboard`, and for any metric family :func:`family` and :func:`compare`; every
option is a keyword named as the CLI's flag and parsed by the library, as the CLI's are.
Functions on Python data, for training loops: :func:`evaluate` and
:func:`classification_report`; :func:`mentions` for the entity lists of generative models; :mod:`fairscore.seqeval` is a drop-in for ``seqeval.metrics``
and :mod:`fairscore.nervaluate` one for nervaluate 1.2.1 (its ``Evaluator``).
Errors are :class:`FairscoreError` subclasses carrying
``file``, ``line`` and ``message``.
"""

import os as _os

from . import seqeval
from ._fairscore import (
    FairscoreError,
    InputError,
    OutputError,
    UsageError,
    check,
    classification_report,
    compare,
    evaluate,
    family,
    fair,
    leaderboard,
    mentions,
    muc,
    normalize,
    score,
    segmentation,
    tagging,
)

from .ids import from_ids, tags_from_ids

#: The directory of fairscore's Hugging Face ``evaluate`` metric module:
#: ``evaluate.load(fairscore.HF_METRIC_PATH)`` (offline; the keys of HF's seqeval metric).
HF_METRIC_PATH = _os.path.join(_os.path.dirname(__file__), "hf_metric")

def __getattr__(name):
    """``fairscore.nervaluate`` is imported on first use (its dataclasses would add to the
    import time of every ``import fairscore``)."""
    if name == "nervaluate":
        import importlib

        return importlib.import_module(".nervaluate", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


try:
    from importlib.metadata import version as _version

    __version__ = _version("fairscore")
except Exception:  # not installed as a distribution (a source checkout)
    __version__ = "0.2.0"

__all__ = [
    "FairscoreError",
    "HF_METRIC_PATH",
    "InputError",
    "OutputError",
    "UsageError",
    "check",
    "classification_report",
    "compare",
    "evaluate",
    "family",
    "fair",
    "from_ids",
    "leaderboard",
    "mentions",
    "muc",
    "nervaluate",
    "normalize",
    "score",
    "segmentation",
    "seqeval",
    "tagging",
    "tags_from_ids",
    "__version__",
]
