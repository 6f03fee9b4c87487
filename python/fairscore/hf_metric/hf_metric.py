"""fairscore as a Hugging Face ``evaluate`` metric: ``evaluate.load(fairscore.HF_METRIC_PATH)``.

It takes the inputs and options of Hugging Face's seqeval metric (``evaluate.load("seqeval")``)
and returns its keys with the same numbers (per type ``precision``, ``recall``, ``f1``,
``number``; ``overall_precision``, ``overall_recall``, ``overall_f1``, ``overall_accuracy``),
computed by fairscore's native seqeval (:mod:`fairscore.seqeval`); with ``regimes=True`` (the
default) it adds fairscore's regimes of all types — ``strict``, ``exact``, ``partial``,
``ent_type`` (counted as the HIPE scorer counts them) and ``fair`` (Ortmann 2022) — each as
``{"precision", "recall", "f1"}`` under its own key. Loaded from the installed package, it
needs no network.
"""

import datasets
import evaluate

import fairscore
from fairscore.ids import hf_scores, regime_scores
from fairscore.seqeval import _SCHEMES

_DESCRIPTION = """fairscore's seqeval-compatible scores of labeled spans (named entities, chunks), with the
keys of Hugging Face's seqeval metric, plus fairscore's other regimes."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of lists of predicted tags.
    references: list of lists of gold tags.
    suffix: True if the prefix (B-, I-) comes after the type. Default False.
    scheme: one of IOB1, IOB2, IOE1, IOE2, IOBES, BILOU (with mode="strict"). Default None.
    mode: None (conlleval-like) or "strict". Default None.
    sample_weight: accepted as seqeval accepts it (unused by seqeval's counting).
    zero_division: 0, 1 or "warn". Default "warn".
    regimes: add fairscore's regimes (strict, exact, partial, ent_type, fair). Default True.
Returns:
    per type: {"precision", "recall", "f1", "number"}; "overall_precision", "overall_recall",
    "overall_f1", "overall_accuracy"; with regimes, {regime: {"precision", "recall", "f1"}}.
Examples:
    >>> import evaluate, fairscore
    >>> metric = evaluate.load(fairscore.HF_METRIC_PATH)
    >>> r = metric.compute(predictions=[["B-PER", "I-PER", "O"]], references=[["B-PER", "I-PER", "O"]])
    >>> r["overall_f1"], r["PER"]["number"], r["strict"]["f1"]
    (1.0, 1, 1.0)
"""

_CITATION = """\
@misc{fairscore, title={fairscore: scoring of shared-task runs}, note={version """ + fairscore.__version__ + """}}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class HfMetric(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": datasets.Sequence(datasets.Value("string", id="label"), id="sequence"),
                    "references": datasets.Sequence(datasets.Value("string", id="label"), id="sequence"),
                }
            ),
        )

    def _compute(self, predictions, references, suffix=False, scheme=None, mode=None,
                 sample_weight=None, zero_division="warn", regimes=True):
        if scheme is not None and scheme not in _SCHEMES:
            raise ValueError(f"Scheme should be one of [IOB1, IOB2, IOE1, IOE2, IOBES, BILOU], got {scheme}")
        out = hf_scores(references, predictions, suffix=suffix, scheme=scheme, mode=mode,
                        sample_weight=sample_weight, zero_division=zero_division)
        if regimes:
            out.update(regime_scores(references, predictions))
        return out
