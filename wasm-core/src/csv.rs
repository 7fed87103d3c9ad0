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

/// Splits CSV as this module writes it into lines of cells (RFC 4180: a quoted cell may hold
/// commas, quotes and line breaks). Each cell is kept as written, quotes and formula guard
/// included, so that joining a line's cells with commas gives back its bytes.
pub fn parse(s: &str) -> Result<Vec<Vec<String>>, String> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut chars = s.chars().peekable();
    let mut line = 1;
    while let Some(c) = chars.next() {
        match c {
            '"' if cell.is_empty() => {
                cell.push('"');
                loop {
                    match chars.next() {
                        Some('"') if chars.peek() == Some(&'"') => {
                            chars.next();
                            cell.push_str("\"\"");
                        }
                        Some('"') => {
                            cell.push('"');
                            if !matches!(chars.peek(), None | Some(',') | Some('\n')) {
                                return Err(format!("line {line}: text after a closing quote"));
                            }
                            break;
                        }
                        Some(ch) => {
                            if ch == '\n' {
                                line += 1;
                            }
                            cell.push(ch);
                        }
                        None => return Err(format!("line {line}: a quoted cell is not closed")),
                    }
                }
            }
            ',' => row.push(std::mem::take(&mut cell)),
            '\n' => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
                line += 1;
            }
            _ => cell.push(c),
        }
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell);
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parsing_splits_cells_and_keeps_them_as_written() {
        let cells = ["a, \"b\"", "=1", "x\ny", "", "plain"];
        let row: Vec<String> = cells.iter().map(|c| text(c).into_owned()).collect();
        let written = format!("{}\n{}\n", row.join(","), row.join(","));
        let rows = parse(&written).unwrap();
        assert_eq!(rows, [row.clone(), row]);
        assert_eq!(parse("-2,1\n").unwrap(), [["-2", "1"]], "a number stays as written");
        assert_eq!(parse("a,\"b").unwrap_err(), "line 1: a quoted cell is not closed");
        assert_eq!(parse("\"a\"b,c").unwrap_err(), "line 1: text after a closing quote");
    }

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
