//! Python- and NumPy-compatible numbers: values that keep Python's int/float/None distinction,
//! `round(x, 3)`, `repr(float)`, and NumPy's pairwise-summed `mean` and `std`.
//!
//! The official outputs print `0` for an integer zero and `0.0` for a float one, and NumPy sums
//! pairwise; reproducing both is what makes the TSV files equal byte for byte.

/// A number as the official scorer holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PyNum {
    /// A Python `int` (printed without a decimal point).
    Int(i64),
    /// A Python `float`.
    Float(f64),
    /// Python's `None` (`null` in JSON, an empty TSV cell).
    None,
}

impl PyNum {
    /// The value as `f64` (`NaN` for `None`).
    pub fn as_f64(self) -> f64 {
        match self {
            PyNum::Int(i) => i as f64,
            PyNum::Float(f) => f,
            PyNum::None => f64::NAN,
        }
    }

    /// Whether the value is `None`.
    pub fn is_none(self) -> bool {
        matches!(self, PyNum::None)
    }

    /// `round(x, 3)` printed as Python prints the result; empty for `None`.
    pub fn round3(self) -> String {
        match self {
            PyNum::Int(i) => i.to_string(),
            PyNum::Float(f) => round3_repr(f),
            PyNum::None => String::new(),
        }
    }

    /// `repr()` of the value (`null` for None), as `json.dump` writes it.
    pub fn json(self) -> String {
        let mut s = String::new();
        self.push_json(&mut s);
        s
    }

    /// Appends what [`PyNum::json`] returns.
    pub fn push_json(self, out: &mut String) {
        use std::fmt::Write;
        match self {
            // Most numbers of a per-label output are small counts: no formatting machinery.
            PyNum::Int(i @ 0..=9) => out.push(char::from(b'0' + i as u8)),
            PyNum::Int(i) => {
                let _ = write!(out, "{i}");
            }
            PyNum::Float(f) => push_py_float(out, f),
            PyNum::None => out.push_str("null"),
        }
    }
}

/// `repr(round(x, 3))` for a finite float.
pub fn round3_repr(x: f64) -> String {
    if !x.is_finite() || x.abs() >= 1e16 {
        // round() leaves such a float as it is; repr() writes it in scientific notation.
        return py_float_repr(x);
    }
    // Rust's fixed-precision formatting is exact with ties to even, as Python's round().
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0');
    let mut s = s.to_string();
    if s.ends_with('.') {
        s.push('0');
    }
    if s == "-0.0" {
        // round(-0.0001, 3) is -0.0 in Python too.
        return s;
    }
    s
}

/// Appends Python's `repr(float)` of `x` to `out` without allocating in the common case
/// (magnitudes in [1e-4, 1e16), where Rust's shortest round-trip `Display` has the same digits).
pub fn push_py_float(out: &mut String, x: f64) {
    use std::fmt::Write;
    // The most frequent scores, written without the formatting machinery.
    if x == 0.0 && x.is_sign_positive() {
        out.push_str("0.0");
        return;
    }
    if x == 1.0 {
        out.push_str("1.0");
        return;
    }
    let a = x.abs();
    if x.is_finite() && x != 0.0 && (1e-4..1e16).contains(&a) {
        let start = out.len();
        let _ = write!(out, "{x}");
        if !out[start..].contains('.') {
            out.push_str(".0");
        }
    } else {
        out.push_str(&py_float_repr(x));
    }
}

/// Python's `repr(float)`: shortest round-trip digits, fixed notation for exponents in
/// -4..16, scientific (`1e-05`, `1.5e+16`) otherwise.
pub fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    let e = format!("{x:e}"); // e.g. "-8.666666666666667e-1", "1e16"
    let (mant, exp) = match e.split_once('e') {
        Some((m, ex)) => (m, ex.parse::<i32>().unwrap_or(0)),
        None => (e.as_str(), 0),
    };
    let neg = mant.starts_with('-');
    let mant = mant.trim_start_matches('-');
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let sign = if neg { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        let body = if exp >= 0 {
            let int_len = exp + 1;
            if n <= int_len {
                format!("{digits}{}.0", "0".repeat((int_len - n) as usize))
            } else {
                format!(
                    "{}.{}",
                    &digits[..int_len as usize],
                    &digits[int_len as usize..]
                )
            }
        } else {
            format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
        };
        format!("{sign}{body}")
    } else {
        let m = if digits.len() == 1 {
            digits.clone()
        } else {
            format!("{}.{}", &digits[..1], &digits[1..])
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{m}e{esign}{:02}", exp.abs())
    }
}

const PW_BLOCKSIZE: usize = 128;

/// NumPy's pairwise summation of a contiguous float64 array (`np.add.reduce`).
pub fn pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut res = 0.0;
        for &x in a {
            res += x;
        }
        res
    } else if n <= PW_BLOCKSIZE {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - (n % 8) {
            for j in 0..8 {
                r[j] += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        while i < n {
            res += a[i];
            i += 1;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        pairwise_sum(&a[..n2]) + pairwise_sum(&a[n2..])
    }
}

/// `float(np.mean(v))`, or None for an empty list.
pub fn np_mean(v: &[f64]) -> PyNum {
    if v.is_empty() {
        return PyNum::None;
    }
    PyNum::Float(pairwise_sum(v) / v.len() as f64)
}

/// `float(np.std(v))` (population), or None for an empty list.
pub fn np_std(v: &[f64]) -> PyNum {
    if v.is_empty() {
        return PyNum::None;
    }
    let mean = pairwise_sum(v) / v.len() as f64;
    let sq: Vec<f64> = v
        .iter()
        .map(|x| {
            let d = x - mean;
            d * d
        })
        .collect();
    PyNum::Float((pairwise_sum(&sq) / v.len() as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_like_python() {
        assert_eq!(py_float_repr(0.8666666666666667), "0.8666666666666667");
        assert_eq!(py_float_repr(1.0), "1.0");
        assert_eq!(py_float_repr(0.1), "0.1");
        assert_eq!(py_float_repr(1e-5), "1e-05");
        assert_eq!(py_float_repr(0.0001), "0.0001");
        assert_eq!(py_float_repr(1.5e16), "1.5e+16");
        assert_eq!(py_float_repr(123.0), "123.0");
        assert_eq!(py_float_repr(1.1), "1.1");
    }

    #[test]
    fn fast_path_agrees_with_the_general_repr() {
        for x in [
            0.8666666666666667,
            1.0,
            0.1,
            1e-4,
            0.00012,
            123.0,
            1e15,
            9.999e15,
            0.5,
            2.0 / 3.0,
            0.0,
            -0.0,
            -1.0,
            1.0000000000000002,
            1e16,
            1e-5,
        ] {
            let mut s = String::new();
            push_py_float(&mut s, x);
            assert_eq!(s, py_float_repr(x), "{x}");
        }
        assert_eq!(py_float_repr(1e-4), "0.0001");
        assert_eq!(py_float_repr(1e15), "1000000000000000.0");
        for i in [0i64, 1, 9, 10, -1, 123456789] {
            assert_eq!(PyNum::Int(i).json(), i.to_string());
        }
    }

    #[test]
    fn round3_like_python() {
        assert_eq!(round3_repr(0.0625), "0.062");
        assert_eq!(round3_repr(0.1875), "0.188");
        assert_eq!(round3_repr(0.9995), "1.0");
        assert_eq!(round3_repr(0.8), "0.8");
        assert_eq!(round3_repr(0.0), "0.0");
        assert_eq!(round3_repr(2e304), "2e+304");
        assert_eq!(round3_repr(1.5e16), "1.5e+16");
        assert_eq!(PyNum::Int(0).round3(), "0");
        assert_eq!(PyNum::None.round3(), "");
    }

    #[test]
    fn pairwise_matches_naive_on_small_and_is_blocked_on_large() {
        let v: Vec<f64> = (0..300).map(|i| 1.0 / (i as f64 + 1.0)).collect();
        let naive: f64 = v.iter().sum();
        assert!((pairwise_sum(&v) - naive).abs() < 1e-12);
        assert_eq!(pairwise_sum(&[0.1, 0.2, 0.3]), 0.1 + 0.2 + 0.3);
        assert_eq!(np_std(&[1.0, 0.0]), PyNum::Float(0.5));
        assert_eq!(np_mean(&[]), PyNum::None);
    }
}
