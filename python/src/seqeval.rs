//! `fairscore.seqeval`'s counting core: tag lists crossing into Rust once (`crate::intern`),
//! counted by the library ([`fairscore::spans::seqeval`]: seqeval 1.2.2's default and strict
//! modes, each distinct tag read once). What seqeval rejects comes back to Python as the
//! exception seqeval raises (its name and argument) with the tags it warns about before; input
//! that is not lists of lists of `str` of one shape gives `None` (Python checks it).

use crate::intern::{label_table, read_ids, read_lists, IdsError, Seqs, Vocab};
use fairscore::spans::seqeval::{self as lib, Mode, Scheme};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Per-type counts: (types sorted, TP, predicted, true, tags warned about in the default
/// mode in order of first appearance).
pub(crate) type Counts = (Vec<String>, Vec<u64>, Vec<u64>, Vec<u64>, Vec<String>);

/// What seqeval raises: (exception name, its argument), after warning about the tags given.
type Raised = (&'static str, String, Vec<String>);

/// The library's counts of two sides read into one vocabulary, or seqeval's exception.
fn counts_or_raised(
    vocab: &Vocab,
    y_true: &Seqs,
    y_pred: &Seqs,
    suffix: bool,
    scheme: Option<Scheme>,
) -> Result<Counts, Raised> {
    let mode = scheme.map_or(Mode::Default, Mode::Strict);
    let tags = |odd: &[u32]| -> Vec<String> {
        odd.iter()
            .map(|&k| vocab.names[k as usize].to_string())
            .collect()
    };
    let lib_vocab = lib::Vocab::new(&vocab.names, mode, suffix);
    match lib_vocab.counts(y_true.sentences(), y_pred.sentences()) {
        Ok(c) => {
            let odd = tags(&c.odd);
            Ok((c.types, c.tp, c.pred, c.gold, odd))
        }
        Err(r) => Err((r.rejection.exception(), r.rejection.message(), tags(&r.odd))),
    }
}

/// Per-type counts of two sides read into one vocabulary; `None` when seqeval rejects a tag
/// (or the scheme is unknown): Python then reads the tag lists and raises seqeval's error.
pub(crate) fn counts(
    vocab: &Vocab,
    y_true: &Seqs,
    y_pred: &Seqs,
    suffix: bool,
    scheme_name: Option<&str>,
) -> Option<Counts> {
    let scheme = match scheme_name {
        None => None,
        Some(name) => Some(Scheme::from_name(name)?),
    };
    counts_or_raised(vocab, y_true, y_pred, suffix, scheme).ok()
}

/// Token tallies of two sides of one shape: (equal tags, tokens, then seqeval's
/// `performance_measure` TP, FP, FN, TN).
pub(crate) fn token_tally(vocab: &Vocab, y_true: &Seqs, y_pred: &Seqs) -> [u64; 6] {
    let c = lib::Vocab::new(&vocab.names, Mode::Default, false)
        .token_counts(&y_true.tags, &y_pred.tags);
    [c.equal, c.tokens, c.tp, c.fp, c.fn_, c.tn]
}

/// Both sides read as lists of lists of `str` of the same shape (seqeval's consistency
/// check), or `None` for the Python code to read and reject as seqeval does.
fn read_pair(y_true: &Bound<'_, PyAny>, y_pred: &Bound<'_, PyAny>) -> Option<(Vocab, Seqs, Seqs)> {
    let mut vocab = Vocab::default();
    let t = read_lists(y_true, &mut vocab)?;
    let p = read_lists(y_pred, &mut vocab)?;
    if !t.shape().eq(p.shape()) {
        return None;
    }
    Some((vocab, t, p))
}

/// `fairscore.seqeval`'s counting core (see the module's documentation): `(counts, None)`,
/// `(None, (exception, argument, tags to warn about))` when seqeval rejects a tag, or None
/// when Python must check the input (not lists of lists of `str` of one shape).
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, suffix, scheme = None))]
fn _seqeval_counts(
    py: Python<'_>,
    y_true: &Bound<'_, PyAny>,
    y_pred: &Bound<'_, PyAny>,
    suffix: bool,
    scheme: Option<&str>,
) -> PyResult<Option<(Option<Counts>, Option<Raised>)>> {
    let scheme = match scheme {
        None => None,
        Some(name) => Some(Scheme::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "scheme {name:?}: expected IOB1, IOB2, IOE1, IOE2, IOBES or BILOU"
            ))
        })?),
    };
    let Some((vocab, t, p)) = read_pair(y_true, y_pred) else {
        return Ok(None);
    };
    Ok(Some(
        match py.allow_threads(|| counts_or_raised(&vocab, &t, &p, suffix, scheme)) {
            Ok(c) => (Some(c), None),
            Err(r) => (None, Some(r)),
        },
    ))
}

/// seqeval's `get_entities` of sentences of tags read as one list with `O` after each:
/// `((type, start, end inclusive) list, None, tags to warn about)`, or `(None, (exception,
/// argument), tags to warn about)`; None when Python must read the input.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn _seqeval_entities(
    seqs: &Bound<'_, PyAny>,
    suffix: bool,
) -> Option<(
    Option<Vec<(String, usize, usize)>>,
    Option<(&'static str, String)>,
    Vec<String>,
)> {
    let mut vocab = Vocab::default();
    let s = read_lists(seqs, &mut vocab)?;
    let lib_vocab = lib::Vocab::new(&vocab.names, Mode::Default, suffix);
    let tags = |odd: &[u32]| -> Vec<String> {
        odd.iter()
            .map(|&k| vocab.names[k as usize].to_string())
            .collect()
    };
    Some(match lib_vocab.entities(s.sentences(), true) {
        Ok((e, odd)) => {
            let e = e
                .iter()
                .map(|e| (lib_vocab.type_name(e.ty).to_string(), e.start, e.end - 1));
            (Some(e.collect()), None, tags(&odd))
        }
        Err(r) => {
            let raised = (r.rejection.exception(), r.rejection.message());
            (None, Some(raised), tags(&r.odd))
        }
    })
}

/// Token tallies (see [`token_tally`]) of two lists of tag lists of one shape, or None.
#[pyfunction]
fn _seqeval_tokens(
    py: Python<'_>,
    y_true: &Bound<'_, PyAny>,
    y_pred: &Bound<'_, PyAny>,
) -> Option<[u64; 6]> {
    let (vocab, t, p) = read_pair(y_true, y_pred)?;
    py.allow_threads(|| Some(token_tally(&vocab, &t, &p)))
}

/// Label ids of one grid: the little-endian `int64` bytes of a row-major array (NumPy's
/// `tobytes()`), in order.
fn grid(bytes: &[u8]) -> Vec<i64> {
    bytes
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect()
}

/// Two grids of label ids (little-endian `int64` bytes, `cols` columns) read as tag ids,
/// positions whose gold id is `ignore_index` left out; a grid of another size or a label id
/// `id2label` lacks is a ValueError naming the grid, row and column.
fn read_grids(
    py: Python<'_>,
    predictions: &Bound<'_, PyBytes>,
    label_ids: &Bound<'_, PyBytes>,
    cols: usize,
    id2label: &Bound<'_, PyAny>,
    ignore_index: i64,
) -> PyResult<(Vocab, Seqs, Seqs)> {
    let (pb, gb) = (predictions.as_bytes(), label_ids.as_bytes());
    if pb.len() != gb.len() || pb.len() % 8 != 0 || (cols > 0 && gb.len() / 8 % cols != 0) {
        return Err(PyValueError::new_err(format!(
            "predictions and label_ids: expected two int64 grids of one shape ({} and {} bytes, {cols} columns)",
            pb.len(),
            gb.len()
        )));
    }
    let mut vocab = Vocab::default();
    let table = label_table(id2label, &mut vocab)?;
    let (pred, gold) = (grid(pb), grid(gb));
    let read = py.allow_threads(|| read_ids(&pred, &gold, cols, ignore_index, &table));
    let (t, p) = read.map_err(|e| match e {
        IdsError::Unknown { pred, row, col, id } => PyValueError::new_err(format!(
            "{}[{row}][{col}]: label id {id} is not in id2label (nor the ignore index {ignore_index})",
            if pred { "predictions" } else { "label_ids" }
        )),
    })?;
    Ok((vocab, t, p))
}

/// The counts and token tallies of two grids of label ids (predictions already argmaxed),
/// read by [`read_grids`]: (counts, token tallies), or None when Python must read the tags
/// (seqeval rejects one).
#[pyfunction]
#[pyo3(signature = (predictions, label_ids, cols, id2label, ignore_index, suffix, scheme = None))]
#[allow(clippy::too_many_arguments)]
fn _ids_counts(
    py: Python<'_>,
    predictions: &Bound<'_, PyBytes>,
    label_ids: &Bound<'_, PyBytes>,
    cols: usize,
    id2label: &Bound<'_, PyAny>,
    ignore_index: i64,
    suffix: bool,
    scheme: Option<&str>,
) -> PyResult<Option<(Counts, [u64; 6])>> {
    let (vocab, t, p) = read_grids(py, predictions, label_ids, cols, id2label, ignore_index)?;
    Ok(py.allow_threads(|| {
        let c = counts(&vocab, &t, &p, suffix, scheme)?;
        Some((c, token_tally(&vocab, &t, &p)))
    }))
}

/// Lists of tags, one per sentence.
type TagLists = Vec<Vec<String>>;

/// Tag lists of two grids of label ids, as the `compute_metrics` boilerplate builds them.
#[pyfunction]
fn _ids_tags(
    py: Python<'_>,
    predictions: &Bound<'_, PyBytes>,
    label_ids: &Bound<'_, PyBytes>,
    cols: usize,
    id2label: &Bound<'_, PyAny>,
    ignore_index: i64,
) -> PyResult<(TagLists, TagLists)> {
    let (vocab, t, p) = read_grids(py, predictions, label_ids, cols, id2label, ignore_index)?;
    let lists = |s: &Seqs| -> TagLists {
        s.sentences()
            .map(|seq| {
                seq.iter()
                    .map(|&k| vocab.names[k as usize].to_string())
                    .collect()
            })
            .collect()
    };
    Ok((lists(&t), lists(&p)))
}

/// Adds the counting core to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_seqeval_counts, m)?)?;
    m.add_function(wrap_pyfunction!(_seqeval_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(_seqeval_entities, m)?)?;
    m.add_function(wrap_pyfunction!(_ids_counts, m)?)?;
    m.add_function(wrap_pyfunction!(_ids_tags, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seqs(vocab: &mut Vocab, s: &[&str]) -> Seqs {
        let mut out = Seqs::default();
        for l in s {
            for t in l.split_whitespace() {
                out.tags.push(vocab.id(t));
            }
            out.ends.push(out.tags.len());
        }
        out
    }

    #[test]
    fn the_bindings_hand_the_library_counts_and_rejections_over() {
        let mut v = Vocab::default();
        let t = seqs(&mut v, &["B-PER I-PER O B-LOC X", "I-ORG"]);
        let p = seqs(&mut v, &["B-PER I-PER O B-ORG O", "B-ORG"]);
        let (names, tp, np, nt, odd) = counts(&v, &t, &p, false, None).unwrap_or_default();
        assert_eq!(names, ["LOC", "ORG", "PER"]);
        assert_eq!(
            (tp, np, nt, odd),
            (
                vec![0, 1, 1],
                vec![0, 2, 1],
                vec![1, 1, 1],
                vec!["X".to_string()]
            )
        );
        assert!(counts(&v, &t, &p, false, Some("IOB2")).is_some());
        assert!(counts(&v, &t, &p, false, Some("nope")).is_none());
        let r = counts_or_raised(&v, &t, &p, false, Some(Scheme::Iobes));
        assert_eq!(r.err().map(|e| e.0), Some("KeyError"));
        assert_eq!(token_tally(&v, &t, &p), [3, 6, 2, 2, 1, 1]);
    }
}
