//! Numbers as error messages show them: as written for ordinary values (`0.5`, `1460`), and in
//! exponent form when very large or very small (`1e300`, not its 301 digits).

/// A number for a message: `format!("(got {})", Num(v))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num(pub f64);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        let a = v.abs();
        if v.is_finite() && v != 0.0 && !(1e-5..1e15).contains(&a) {
            write!(f, "{v:e}")
        } else {
            write!(f, "{v}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_and_tiny_numbers_are_shown_in_exponent_form_and_others_as_written() {
        let shown = |v: f64| Num(v).to_string();
        assert_eq!(shown(1e300), "1e300");
        assert_eq!(shown(-1.5e300), "-1.5e300");
        assert_eq!(shown(f64::MAX), "1.7976931348623157e308");
        assert_eq!(shown(1e-7), "1e-7");
        assert_eq!(shown(0.5), "0.5");
        assert_eq!(shown(1460.0), "1460");
        assert_eq!(shown(0.0), "0");
        assert_eq!(shown(604_800_000.0), "604800000");
        assert_eq!(shown(0.00001), "0.00001");
    }
}
