//! Inter-annotator agreement numbers: pairwise F1 (Hripcsak and Rothschild 2005) with the mean
//! and population standard deviation over annotator pairs (as bratiaa reports them), and
//! chance-corrected coefficients over a matrix of labels, items × annotators, `None` where an
//! annotator gave no label: Cohen's kappa averaged over pairs, Fleiss' kappa (Scott's multi-pi),
//! Davies and Fleiss' multi-kappa, and Krippendorff's alpha (nominal). The definitions are
//! those of Artstein and Poesio (2008) as NLTK's `AnnotationTask` implements them
//! (`kappa`, `pi`, `multi_kappa`, `alpha`); alpha equals the `krippendorff` package's nominal
//! alpha. Where the expected agreement is 1 (every label the same), NLTK 3.10's convention
//! holds: 1 when the observed agreement is 1 too (always so for these coefficients), and
//! alpha is 1 when one label is used on every pairable item. No data: `None`, never NaN.

/// F1 of `tp`, `fp`, `fn` counts, `2tp / (2tp + fp + fn)`; `None` when all are zero.
pub fn f1(tp: u64, fp: u64, fn_: u64) -> Option<f64> {
    let d = 2 * tp + fp + fn_;
    (d > 0).then(|| (2 * tp) as f64 / d as f64)
}

/// Mean and population standard deviation (NumPy's `mean`, `std` with `ddof=0`) of `xs`;
/// `None` for no values.
pub fn mean_sd(xs: &[f64]) -> Option<(f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    Some((mean, var.sqrt()))
}

/// The chance-corrected coefficients of one label matrix.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coefficients {
    /// Items every annotator labelled (the items of the kappas).
    pub complete_items: usize,
    /// Items at least two annotators labelled (the items of alpha).
    pub pairable_items: usize,
    /// Observed agreement, averaged over pairs, on complete items.
    pub observed: Option<f64>,
    /// Cohen's kappa averaged over annotator pairs (Cohen's kappa for two annotators).
    pub cohen: Option<f64>,
    /// Fleiss' kappa (Scott's multi-pi; NLTK's `pi`).
    pub fleiss: Option<f64>,
    /// Davies and Fleiss' multi-kappa (NLTK's `multi_kappa`).
    pub davies_fleiss: Option<f64>,
    /// Krippendorff's alpha, nominal, missing labels allowed.
    pub alpha: Option<f64>,
}

fn ratio(num: f64, den: f64) -> Option<f64> {
    let x = num / den;
    (den != 0.0 && x.is_finite()).then_some(x)
}

/// Python's `math.isclose` with its defaults (relative tolerance 1e-9).
fn is_close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// `(observed - expected) / (1 - expected)`, with NLTK's convention (3.10,
/// `_chance_corrected_agreement`) for an expected agreement of 1 (both coders used one and
/// the same label on every item): 1 when the observed agreement is 1 too, else undefined.
fn chance_corrected(observed: f64, expected: f64) -> Option<f64> {
    if is_close(expected, 1.0) {
        return is_close(observed, 1.0).then_some(1.0);
    }
    ratio(observed - expected, 1.0 - expected)
}

/// The coefficients of `matrix`: items × `n_coders` labels flattened (row `i` is
/// `matrix[i * n_coders..(i + 1) * n_coders]`), each a label index or `None`. Label
/// indexes should be small (they index count tables): those of a label list.
pub fn coefficients(matrix: &[Option<u32>], n_coders: usize) -> Coefficients {
    let width = n_coders.max(1);
    let k = matrix.iter().flatten().max().map_or(0, |&m| m as usize + 1);
    // One pass over the complete items (every coder labelled them): per-coder and overall
    // label counts, and per pair of coders the items they agree on. Counts are integers, so
    // their sums are exact in any order.
    let coder_pairs: Vec<(usize, usize)> = (0..n_coders)
        .flat_map(|a| (a + 1..n_coders).map(move |b| (a, b)))
        .collect();
    let mut agree = vec![0u64; coder_pairs.len()];
    let mut overall: Vec<u64> = vec![0; k];
    let mut complete_items = 0usize;
    let mut labels: Vec<u32> = vec![0; n_coders];
    // Per coder: a dense count table while coders × labels stays within the matrix's size
    // (linear in the input), else only the labels each coder used (sorted below).
    let dense = n_coders.saturating_mul(k) <= matrix.len();
    let mut table: Vec<u64> = if dense {
        vec![0; n_coders * k]
    } else {
        Vec::new()
    };
    let mut sparse: Vec<Vec<u32>> = vec![Vec::new(); if dense { 0 } else { n_coders }];
    // Alpha's sums in the same pass (over the items two or more coders labelled).
    let mut pairable = Pairable {
        totals: vec![0; k],
        ..Pairable::default()
    };
    let mut counts: Vec<(u32, u64)> = Vec::with_capacity(n_coders);
    for r in matrix.chunks_exact(width) {
        // Most items: every coder gave the same label. The same sums, in fewer steps (alpha's
        // observed disagreement adds 0).
        if let (Some(l), true) = (r[0], n_coders >= 2) {
            if r.iter().all(|x| *x == Some(l)) {
                let m = n_coders as u64;
                pairable.items += 1;
                pairable.n += m;
                if let Some(t) = pairable.totals.get_mut(l as usize) {
                    *t += m;
                }
                complete_items += 1;
                overall[l as usize] += m;
                if dense {
                    for c in 0..n_coders {
                        table[c * k + l as usize] += 1;
                    }
                } else {
                    sparse.iter_mut().for_each(|s| s.push(l));
                }
                agree.iter_mut().for_each(|n| *n += 1);
                continue;
            }
        }
        counts.clear();
        for &l in r.iter().flatten() {
            match counts.iter_mut().find(|c| c.0 == l) {
                Some(c) => c.1 += 1,
                None => counts.push((l, 1)),
            }
        }
        let m: u64 = counts.iter().map(|c| c.1).sum();
        pairable.add(&counts, m);
        if n_coders == 0 || m != n_coders as u64 {
            continue;
        }
        complete_items += 1;
        for (c, l) in r.iter().flatten().enumerate() {
            labels[c] = *l;
            overall[*l as usize] += 1;
            if dense {
                table[c * k + *l as usize] += 1;
            } else {
                sparse[c].push(*l);
            }
        }
        for (n, &(a, b)) in agree.iter_mut().zip(&coder_pairs) {
            *n += u64::from(labels[a] == labels[b]);
        }
    }
    let n_items = complete_items as f64;
    // Each coder's (label, count) in label order, the labels it used only.
    let per_coder: Vec<Vec<(u32, f64)>> = (0..n_coders)
        .map(|c| {
            if dense {
                table[c * k..(c + 1) * k]
                    .iter()
                    .enumerate()
                    .filter(|&(_, &n)| n > 0)
                    .map(|(l, &n)| (l as u32, n as f64))
                    .collect()
            } else {
                let mut ls = std::mem::take(&mut sparse[c]);
                ls.sort_unstable();
                let mut out: Vec<(u32, f64)> = Vec::new();
                for l in ls {
                    match out.last_mut() {
                        Some((x, n)) if *x == l => *n += 1.0,
                        _ => out.push((l, 1.0)),
                    }
                }
                out
            }
        })
        .collect();
    let overall: Vec<f64> = overall.into_iter().map(|n| n as f64).collect();
    let mut ao_sum = 0.0;
    let mut ae_sum = 0.0;
    let mut kappa_sum = 0.0;
    let mut kappa_ok = true;
    let mut pairs = 0.0;
    for (&(a, b), &agreed) in coder_pairs.iter().zip(&agree) {
        let ao = agreed as f64 / n_items;
        // Labels in index order, those the first coder used (as a sum over its counts).
        let pb = &per_coder[b];
        let ae: f64 = per_coder[a]
            .iter()
            .map(|&(l, na)| {
                let nb = pb
                    .binary_search_by_key(&l, |&(x, _)| x)
                    .map_or(0.0, |i| pb[i].1);
                (na / n_items) * (nb / n_items)
            })
            .sum();
        match chance_corrected(ao, ae) {
            Some(k) => kappa_sum += k,
            None => kappa_ok = false,
        }
        ao_sum += ao;
        ae_sum += ae;
        pairs += 1.0;
    }
    let defined = n_items > 0.0 && pairs > 0.0;
    let avg_ao = ao_sum / pairs;
    let ae_pi = overall.iter().map(|f| f * f).sum::<f64>()
        / ((n_items * n_coders as f64) * (n_items * n_coders as f64));
    let ae_df = ae_sum / pairs;
    let (pairable, alpha) = pairable.alpha();
    Coefficients {
        complete_items,
        pairable_items: pairable,
        observed: defined.then_some(avg_ao).filter(|x| x.is_finite()),
        cohen: (defined && kappa_ok)
            .then_some(kappa_sum / pairs)
            .filter(|x| x.is_finite()),
        fleiss: if defined {
            chance_corrected(avg_ao, ae_pi)
        } else {
            None
        },
        davies_fleiss: if defined {
            chance_corrected(avg_ao, ae_df)
        } else {
            None
        },
        alpha,
    }
}

/// The sums of Krippendorff's nominal alpha over the items with two or more labels.
#[derive(Default)]
struct Pairable {
    /// How many such items.
    items: usize,
    /// Each label's count over them.
    totals: Vec<u64>,
    /// Disagreeing ordered pairs within each item, weighted 1 / (m - 1), summed in item order.
    observed: f64,
    /// Their labels.
    n: u64,
}

impl Pairable {
    /// Adds an item: its labels' counts and `m`, their sum.
    fn add(&mut self, counts: &[(u32, u64)], m: u64) {
        if m < 2 {
            return;
        }
        self.items += 1;
        let same: u64 = counts.iter().map(|c| c.1 * c.1).sum();
        // Integers below 2^53: the same float as from float counts.
        self.observed += (m * m - same) as f64 / (m - 1) as f64;
        self.n += m;
        for &(l, c) in counts {
            if let Some(t) = self.totals.get_mut(l as usize) {
                *t += c;
            }
        }
    }

    /// Krippendorff's nominal alpha and the number of items it uses.
    fn alpha(&self) -> (usize, Option<f64>) {
        let (items, n) = (self.items, self.n as f64);
        if n < 2.0 {
            return (items, None);
        }
        // One label on every pairable item: perfect agreement by NLTK's convention (its
        // `alpha` returns 1; the krippendorff package refuses such data).
        if self.totals.iter().filter(|&&c| c > 0).count() == 1 {
            return (items, Some(1.0));
        }
        let same: f64 = self.totals.iter().map(|&c| c as f64 * c as f64).sum();
        let expected = (n * n - same) / (n * (n - 1.0));
        let d_o = self.observed / n;
        (items, ratio(d_o, expected).map(|r| 1.0 - r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artstein_poesio_style_numbers() {
        // Two coders, 10 items: 8 agreements.
        let m: Vec<Option<u32>> = [
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
            (1, 1),
            (1, 1),
            (1, 1),
            (1, 1),
            (0, 1),
            (1, 0),
        ]
        .iter()
        .flat_map(|&(a, b)| [Some(a), Some(b)])
        .collect();
        let c = coefficients(&m, 2);
        assert_eq!(c.observed, Some(0.8));
        assert!((c.cohen.unwrap_or(0.0) - 0.6).abs() < 1e-12);
        assert!((c.fleiss.unwrap_or(0.0) - 0.6).abs() < 1e-12);
        // alpha = 1 - (n - 1) Do / De with n = 20: 1 - 19 * 0.2 / 10 = 0.62.
        assert!((c.alpha.unwrap_or(0.0) - 0.62).abs() < 1e-12);
        // All the same label: perfect agreement by NLTK's convention, not NaN.
        let same = vec![Some(0); 6];
        let c = coefficients(&same, 2);
        assert_eq!(
            (c.cohen, c.fleiss, c.alpha),
            (Some(1.0), Some(1.0), Some(1.0))
        );
        // Three coders, one pair of them using only label 0 (that pair's kappa is 1 by
        // convention), the others agreeing on 3 of 4 items.
        let m: Vec<Option<u32>> = [(0, 0, 0), (0, 0, 1), (0, 0, 1), (0, 0, 0)]
            .iter()
            .flat_map(|&(a, b, c)| [Some(a), Some(b), Some(c)])
            .collect();
        let c = coefficients(&m, 3);
        // Pairs: (0,1) kappa 1; (0,2) and (1,2): Ao 0.5, Ae 0.5 → 0.
        assert_eq!(c.cohen, Some(1.0 / 3.0));
        // No data at all: undefined.
        assert_eq!(coefficients(&[], 2).alpha, None);
        assert_eq!(mean_sd(&[1.0, 3.0]), Some((2.0, 1.0)));
        assert_eq!(f1(0, 0, 0), None);
    }
}
