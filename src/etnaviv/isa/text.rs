//! The plain-text binary format: one instruction per line as four 8-digit hex words (word 0
//! first), and raw little-endian bytes.

use std::fmt;

/// A malformed line of the hex-words format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordsError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for WordsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for WordsError {}

/// Parses lines of four hex words; blank lines and text after `;` or `#` are ignored, and a
/// `0x` prefix is accepted.
pub fn parse_words(text: &str) -> Result<Vec<[u32; 4]>, WordsError> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split([';', '#']).next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |message: String| WordsError {
            line: n + 1,
            message,
        };
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.len() != 4 {
            return Err(err(format!("expected 4 hex words, found {}", tokens.len())));
        }
        let mut w = [0u32; 4];
        for (slot, tok) in w.iter_mut().zip(&tokens) {
            let digits = tok.strip_prefix("0x").unwrap_or(tok);
            if digits.is_empty() || digits.len() > 8 {
                return Err(err(format!("'{tok}' is not a 32-bit hex word")));
            }
            *slot = u32::from_str_radix(digits, 16)
                .map_err(|_| err(format!("'{tok}' is not a hex word")))?;
        }
        out.push(w);
    }
    Ok(out)
}

/// Formats one instruction as `wwwwwwww wwwwwwww wwwwwwww wwwwwwww`.
pub fn format_words(w: [u32; 4]) -> String {
    format!("{:08x} {:08x} {:08x} {:08x}", w[0], w[1], w[2], w[3])
}

/// Splits raw instruction memory (16 bytes per instruction, little-endian words).
pub fn words_from_bytes(bytes: &[u8]) -> Result<Vec<[u32; 4]>, WordsError> {
    if bytes.len() % 16 != 0 {
        return Err(WordsError {
            line: 0,
            message: format!(
                "{} bytes is not a whole number of 16-byte instructions",
                bytes.len()
            ),
        });
    }
    Ok(bytes
        .chunks_exact(16)
        .map(|c| {
            let mut w = [0u32; 4];
            for (i, slot) in w.iter_mut().enumerate() {
                *slot = u32::from_le_bytes([c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3]]);
            }
            w
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        let w = parse_words("07811018 15001f20 00000000 00000000 ; texld\n\n0x1 2 3 4\n").unwrap();
        assert_eq!(w, vec![[0x0781_1018, 0x1500_1f20, 0, 0], [1, 2, 3, 4]]);
        assert_eq!(format_words(w[0]), "07811018 15001f20 00000000 00000000");
        assert_eq!(parse_words("1 2 3").unwrap_err().line, 1);
        assert!(parse_words("1 2 3 zz").is_err());
        assert!(parse_words("1 2 3 123456789").is_err());
        let bytes = [0x18, 0x10, 0x81, 0x07, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0];
        assert_eq!(
            words_from_bytes(&bytes).unwrap(),
            vec![[0x0781_1018, 1, 2, 3]]
        );
        assert!(words_from_bytes(&bytes[..15]).is_err());
    }
}
