//! The path of the value at a position of JSON text that may be broken from there on: how a
//! syntax error is given a field (`topology.links[0].delay_ms: NaN is not a number …`).
//!
//! A small tokenizer reads the text up to the position, keeping the stack of objects (with the
//! key being read) and arrays (with the index), and where the last value began.

/// One open object or array.
enum Open {
    /// An object: its last key, and whether its colon has been read (the value is being read).
    Object { key: Option<String>, in_value: bool },
    /// An array: the index of the element being read.
    Array { index: usize },
}

/// The path of the value being read at byte `offset` of `text`, and the text of that value when
/// it is a bare word or number (`NaN`, `-Infinity`, `1e309`), as far as it goes.
pub(super) fn locate(text: &str, offset: usize) -> (String, Option<&str>) {
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    let mut open: Vec<Open> = Vec::new();
    let mut expect_value = true;
    let mut start: Option<usize> = None;
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b' ' | b'\t' | b'\n' | b'\r' => {}
            b'"' => {
                let from = i;
                i += 1;
                while i < end && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                match open.last_mut() {
                    Some(Open::Object { key, in_value: false }) => {
                        let raw = text.get(from..(i + 1).min(bytes.len())).unwrap_or("");
                        *key = Some(serde_json::from_str(raw).unwrap_or_else(|_| raw.trim_matches('"').to_string()));
                    }
                    _ => {
                        start = Some(from);
                        expect_value = false;
                    }
                }
            }
            b'{' => {
                open.push(Open::Object { key: None, in_value: false });
                expect_value = false;
            }
            b'[' => {
                open.push(Open::Array { index: 0 });
                expect_value = true;
                start = None;
            }
            b'}' | b']' => {
                open.pop();
                expect_value = false;
                start = None;
            }
            b':' => {
                if let Some(Open::Object { in_value, .. }) = open.last_mut() {
                    *in_value = true;
                }
                expect_value = true;
                start = None;
            }
            b',' => {
                match open.last_mut() {
                    Some(Open::Object { key, in_value }) => {
                        *key = None;
                        *in_value = false;
                    }
                    Some(Open::Array { index }) => {
                        *index += 1;
                        expect_value = true;
                    }
                    None => {}
                }
                start = None;
            }
            _ => {
                if expect_value {
                    start = Some(i);
                    expect_value = false;
                }
            }
        }
        i += 1;
    }
    // The value begins at the position itself (the parser stops at the `N` of `NaN`).
    if expect_value {
        let ws = bytes[end..].iter().take_while(|b| b.is_ascii_whitespace()).count();
        start = Some(end + ws).filter(|&s| s < bytes.len());
    }
    let mut path = String::new();
    for o in &open {
        match o {
            Open::Object { key: Some(k), .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.extend(k.chars().take(60).flat_map(char::escape_debug));
            }
            Open::Object { key: None, .. } => break,
            Open::Array { index } => path.push_str(&format!("[{index}]")),
        }
    }
    let token = start.filter(|&s| !b"\"{}[],:".contains(&bytes[s])).map(|s| {
        let len = bytes[s..].iter().take_while(|b| b.is_ascii_alphanumeric() || b"+-.".contains(b)).count();
        &text[s..s + len]
    });
    (path, token)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, marker: &str) -> (String, Option<String>) {
        let (p, t) = locate(text, text.find(marker).unwrap());
        (p, t.map(str::to_string))
    }

    #[test]
    fn the_path_follows_keys_and_indices_up_to_the_position() {
        let text = r#"{"topology": {"links": [{"delay_ms": 1}, {"rate_mbps": 2, "delay_ms": NaN}]}}"#;
        assert_eq!(at(text, "NaN"), ("topology.links[1].delay_ms".into(), Some("NaN".into())));
        assert_eq!(locate(text, text.find("NaN").unwrap() + 2).1, Some("NaN"));
        let text = r#"{"a": "x,[{", "b": [[1, 2], [3, -1e999]]}"#;
        assert_eq!(at(text, "-1e999"), ("b[1][1]".into(), Some("-1e999".into())));
        // Between a key and its value, and before any key.
        assert_eq!(at(r#"{"a" ; 1}"#, ";"), ("a".into(), None));
        assert_eq!(at(r#"{"a": 1, ;}"#, ";"), ("".into(), None));
        // An escaped quote inside a key.
        assert_eq!(at(r#"{"a\"b": {"c": inf}}"#, "inf"), ("a\\\"b.c".into(), Some("inf".into())));
    }
}
