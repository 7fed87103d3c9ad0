//! Text that came from the user (a scenario's `name`, `paper.source`, a file name, an error
//! quoting a value) as the CLI prints it on a terminal: control characters escaped, so that a
//! shared scenario cannot move the cursor, retitle the window, hide text or reorder it. One
//! helper for everything printed: errors, the compare table, progress lines.

use std::borrow::Cow;

/// Whether `c` would steer a terminal rather than show: the C0 controls (but line breaks and
/// tabs where `keep_lines`), DEL, the C1 controls (U+0080–U+009F, which some terminals obey
/// as ESC sequences), and the bidirectional overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069, and the marks U+200E, U+200F, U+061C), which reorder the text shown.
fn steers(c: char, keep_lines: bool) -> bool {
    match c {
        '\n' | '\t' => !keep_lines,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}' => true,
        _ => false,
    }
}

fn escape(s: &str, keep_lines: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| steers(c, keep_lines)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if steers(c, keep_lines) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Text of several lines (an error listing its problems): line breaks and tabs kept, every
/// other control character escaped as `\u{1b}`.
pub fn text(s: &str) -> Cow<'_, str> {
    escape(s, true)
}

/// Text of one line (a name in a table, a progress line): line breaks escaped too.
pub fn line(s: &str) -> Cow<'_, str> {
    escape(s, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_plain_text_is_untouched() {
        assert!(matches!(text("flows[0].cc: unknown value \"cubc\"\nsecond"), Cow::Borrowed(_)));
        assert_eq!(line("x\u{1b}[31mRED"), "x\\u{1b}[31mRED");
        assert_eq!(line("\u{1b}]0;pwn\u{7}"), "\\u{1b}]0;pwn\\u{7}");
        assert_eq!(text("a\nb\r\tc\u{7f}\u{9b}"), "a\nb\\u{d}\tc\\u{7f}\\u{9b}");
        assert_eq!(line("a\nb"), "a\\u{a}b");
        assert_eq!(line("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(line("Zürich, 東京"), "Zürich, 東京");
    }
}
