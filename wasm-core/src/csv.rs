//! CSV cells, written once for every CSV the project writes (`orbitcp sweep`, `orbitcp run
//! --csv`, `orbitcp route`).
//!
//! Text is quoted when it holds a comma, a quote or a line break (RFC 4180 §2). Text that a
//! spreadsheet would read as a formula (a cell beginning with `=`, `+`, `-`, `@`, a tab or a
//! carriage return) gets a leading `'`, as OWASP's "CSV Injection" page advises, so that opening
//! a sweep of a shared scenario cannot run anything. Numbers are written as they are: a negative
//! number stays a number.

use serde_json::Value;
use std::borrow::Cow;

/// Characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
const FORMULA_START: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A text cell: prefixed with `'` if it could start a formula, quoted if it needs it.
pub fn text(s: &str) -> Cow<'_, str> {
    let guarded: Cow<str> = if s.starts_with(FORMULA_START) { Cow::Owned(format!("'{s}")) } else { Cow::Borrowed(s) };
    if guarded.contains([',', '"', '\n', '\r']) {
        Cow::Owned(format!("\"{}\"", guarded.replace('"', "\"\"")))
    } else {
        guarded
    }
}

/// A cell from a JSON value: numbers and booleans as they are, null empty, strings as
/// [`text`], arrays and objects as their JSON text (a [`text`] cell too).
pub fn value(v: &Value) -> Cow<'_, str> {
    match v {
        Value::Null => Cow::Borrowed(""),
        Value::Number(n) => Cow::Owned(n.to_string()),
        Value::Bool(b) => Cow::Borrowed(if *b { "true" } else { "false" }),
        Value::String(s) => text(s),
        other => Cow::Owned(text(&other.to_string()).into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_that_could_start_a_formula_gets_a_quote_mark() {
        assert_eq!(text("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
        for s in ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
            let cell = text(s);
            assert!(cell.starts_with("'") || cell.starts_with("\"'"), "{s:?} gave {cell:?}");
        }
        assert_eq!(text("+outage"), "'+outage");
        assert_eq!(text("cubic"), "cubic");
        assert_eq!(text("a=b"), "a=b", "only the first character matters");
    }

    #[test]
    fn numbers_stay_numbers_even_when_negative() {
        assert_eq!(value(&json!(-1.5)), "-1.5");
        assert_eq!(value(&json!(-3)), "-3");
        assert_eq!(value(&json!(0.02)), "0.02");
        assert_eq!(value(&json!("-1.5")), "'-1.5", "a string is text, whatever it holds");
        assert_eq!(value(&Value::Null), "");
        assert_eq!(value(&json!(true)), "true");
    }

    #[test]
    fn commas_quotes_and_line_breaks_are_quoted() {
        assert_eq!(text("a,b"), "\"a,b\"");
        assert_eq!(text("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(text("two\nlines"), "\"two\nlines\"");
        assert_eq!(
            value(&json!({"model": "bernoulli", "p": 0.1})),
            "\"{\"\"model\"\":\"\"bernoulli\"\",\"\"p\"\":0.1}\""
        );
        assert_eq!(value(&json!([1, 2])), "\"[1,2]\"");
    }
}
