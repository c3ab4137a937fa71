//! The error every text reader reports: where in the input, and what was wrong.

use std::fmt;

/// A problem at a position of a text input (NIR, EU assembly, Vivante assembly). Prints as
/// `line:col: message`, so callers put the file name in front and get the compiler-style
/// `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What was expected or what is wrong.
    pub message: String,
}

/// The longest message a [`SourceError`] prints. Messages quote the input they stopped at;
/// a hostile line (a 10 MB swizzle) must not come back as a 10 MB message through stderr or
/// `gpucc_last_error()`, so the quote is cut here, whatever built the message.
pub const MAX_MESSAGE: usize = 400;

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}",
            self.line,
            self.col,
            bounded(&self.message, MAX_MESSAGE)
        )
    }
}

/// `text` when it has at most `max` bytes; otherwise its first `max` bytes (cut at a
/// character boundary) and a note of how much was left out.
pub fn bounded(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if text.len() <= max {
        return text.into();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} more bytes)", &text[..end], text.len() - end).into()
}

impl std::error::Error for SourceError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_cut_at_a_character_boundary() {
        let e = SourceError {
            line: 3,
            col: 9,
            message: format!("bad `{}`", "é".repeat(1000)),
        };
        let shown = e.to_string();
        assert!(shown.len() < MAX_MESSAGE + 40, "{}", shown.len());
        assert!(shown.starts_with("3:9: bad `éé"));
        // 5 bytes of "bad `", then 197 two-byte characters fill 399 bytes of the 400; the
        // rest of the 2,006 is left out.
        assert!(shown.ends_with("... (1607 more bytes)"), "{shown}");
        let short = SourceError {
            line: 1,
            col: 1,
            message: "short".into(),
        };
        assert_eq!(short.to_string(), "1:1: short");
    }
}
