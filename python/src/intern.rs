//! Tag sequences crossing from Python into Rust once: every tag becomes a `u32` id into a
//! vocabulary of distinct tag texts ([`Vocab`]); no per-token Python object or Rust string is
//! kept. Lists of tag lists are read with a cache keyed by the string object (the same `str`
//! object, as tags usually are, costs one lookup), then by text; label ids (NumPy arrays or
//! lists) are mapped through `id2label` with an ignore index, as Hugging Face's
//! `compute_metrics` boilerplate does.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A small multiplicative hasher for pointer and integer keys (the standard SipHash costs
/// more than the rest of the per-token work).
#[derive(Default)]
pub(crate) struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        let mut last = [0u8; 8];
        let rest = chunks.remainder();
        last[..rest.len()].copy_from_slice(rest);
        self.write_u64(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }
}

pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// Slots of the cache of recently read string objects.
const RECENT: usize = 1024;

/// The distinct tag texts seen so far, each with its id.
pub(crate) struct Vocab {
    pub(crate) names: Vec<Box<str>>,
    by_name: FastMap<Box<str>, u32>,
    /// The ids of string objects recently read, by address (direct-mapped, so it never grows;
    /// valid while the lists read are alive: the GIL is held and the lists keep their strings,
    /// so no address is reused meanwhile; cleared after each read).
    recent: Vec<(usize, u32)>,
}

impl Default for Vocab {
    fn default() -> Self {
        Vocab {
            names: Vec::new(),
            by_name: FastMap::default(),
            recent: vec![(0, 0); RECENT],
        }
    }
}

impl Vocab {
    pub(crate) fn id(&mut self, name: &str) -> u32 {
        if let Some(&k) = self.by_name.get(name) {
            return k;
        }
        let k = self.names.len() as u32;
        self.names.push(name.into());
        self.by_name.insert(name.into(), k);
        k
    }
}

/// Sentences of tag ids: sentence `k` is `tags[ends[k-1]..ends[k]]`.
#[derive(Default)]
pub(crate) struct Seqs {
    pub(crate) tags: Vec<u32>,
    pub(crate) ends: Vec<usize>,
}

impl Seqs {
    pub(crate) fn sentences(&self) -> impl Iterator<Item = &[u32]> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let s = &self.tags[start..end];
            start = end;
            s
        })
    }

    pub(crate) fn shape(&self) -> impl Iterator<Item = usize> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let n = end - start;
            start = end;
            n
        })
    }
}

/// A list of lists of `str` (exactly `list`, as seqeval demands) as ids; `None` for anything
/// else (another container, a tag that is not a string, a string that is not valid UTF-8):
/// the caller then hands the input to the Python code that raises the right error.
pub(crate) fn read_lists(obj: &Bound<'_, PyAny>, vocab: &mut Vocab) -> Option<Seqs> {
    let out = read_lists_raw(obj, vocab);
    // The addresses are valid only while the lists are alive: forget them.
    vocab.recent.fill((0, 0));
    out
}

/// [`read_lists`] without the cache's clearing. The items are read as borrowed references
/// (`PyList_GetItem`: no reference count touched, the list's length read once per list): the
/// GIL is held and nothing here runs Python code, so no list changes meanwhile.
fn read_lists_raw(obj: &Bound<'_, PyAny>, vocab: &mut Vocab) -> Option<Seqs> {
    let py = obj.py();
    let outer = obj.downcast_exact::<PyList>().ok()?;
    let n = outer.len();
    // SAFETY (every block below): `outer` and its items are valid list objects (type checked
    // exactly) held alive by the caller's references; indices are below the lengths read.
    let seq_ptr = |k: usize| unsafe { ffi::PyList_GetItem(outer.as_ptr(), k as ffi::Py_ssize_t) };
    let mut total = 0usize;
    for k in 0..n {
        let seq = seq_ptr(k);
        if seq.is_null() {
            drop(PyErr::take(py));
            return None;
        }
        if unsafe { ffi::PyList_CheckExact(seq) } == 0 {
            return None;
        }
        total += unsafe { ffi::PyList_Size(seq) }.max(0) as usize;
    }
    let mut out = Seqs::default();
    out.ends.reserve_exact(n);
    out.tags.reserve_exact(total);
    for k in 0..n {
        let seq = seq_ptr(k);
        let len = unsafe { ffi::PyList_Size(seq) }.max(0);
        for j in 0..len {
            let tag = unsafe { ffi::PyList_GetItem(seq, j) };
            if tag.is_null() {
                drop(PyErr::take(py));
                return None;
            }
            let key = tag as usize;
            let slot = (key >> 4) % RECENT;
            let (seen, k) = vocab.recent[slot];
            let id = if seen == key {
                k
            } else {
                let tag = unsafe { Bound::from_borrowed_ptr(py, tag) };
                let s = tag.downcast::<PyString>().ok()?;
                let k = vocab.id(s.to_str().ok()?);
                vocab.recent[slot] = (key, k);
                k
            };
            out.tags.push(id);
        }
        out.ends.push(out.tags.len());
    }
    Some(out)
}

/// `id2label` as a table from label id to vocabulary id: a dict of int → str (as a model's
/// `config.id2label`) or a list of str (`label_list`).
pub(crate) fn label_table(
    id2label: &Bound<'_, PyAny>,
    vocab: &mut Vocab,
) -> PyResult<FastMap<i64, u32>> {
    let mut table = FastMap::default();
    if let Ok(d) = id2label.downcast::<PyDict>() {
        for (k, v) in d.iter() {
            let k: i64 = k.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "id2label: key {k}: expected an int label id"
                ))
            })?;
            let v = v.downcast::<PyString>().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "id2label[{k}]: expected a str label"
                ))
            })?;
            table.insert(k, vocab.id(v.to_str()?));
        }
    } else {
        for (k, v) in id2label.iter()?.enumerate() {
            let v = v?;
            let v = v.downcast::<PyString>().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "id2label[{k}]: expected a str label"
                ))
            })?;
            table.insert(k as i64, vocab.id(v.to_str()?));
        }
    }
    Ok(table)
}

/// Why a pair of id grids cannot be read.
pub(crate) enum IdsError {
    /// A label id (not the ignore index) that `id2label` does not know: (row, column, id),
    /// `pred` telling which grid.
    Unknown {
        pred: bool,
        row: usize,
        col: usize,
        id: i64,
    },
}

/// Gold and predicted tags of two grids of label ids of one shape (row-major, `rows` × `cols`):
/// the positions whose gold id is `ignore` are dropped from both, as in the `-100` masks of
/// Hugging Face's token classification (sub-word pieces, special tokens, padding).
pub(crate) fn read_ids(
    pred: &[i64],
    gold: &[i64],
    cols: usize,
    ignore: i64,
    table: &FastMap<i64, u32>,
) -> Result<(Seqs, Seqs), IdsError> {
    let (mut t, mut p) = (Seqs::default(), Seqs::default());
    t.tags.reserve(gold.len());
    p.tags.reserve(gold.len());
    let rows = gold.len().checked_div(cols).unwrap_or(0);
    for row in 0..rows {
        for col in 0..cols {
            let k = row * cols + col;
            let g = gold[k];
            if g == ignore {
                continue;
            }
            let Some(&gi) = table.get(&g) else {
                return Err(IdsError::Unknown {
                    pred: false,
                    row,
                    col,
                    id: g,
                });
            };
            let Some(&pi) = table.get(&pred[k]) else {
                return Err(IdsError::Unknown {
                    pred: true,
                    row,
                    col,
                    id: pred[k],
                });
            };
            t.tags.push(gi);
            p.tags.push(pi);
        }
        t.ends.push(t.tags.len());
        p.ends.push(p.tags.len());
    }
    Ok((t, p))
}
