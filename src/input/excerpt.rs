//! Quoting user input in a message: a short excerpt, never the whole of a long token.

/// Characters of a quoted token kept in a message.
const KEEP: usize = 40;

/// `text` as is when short, else its first characters, an ellipsis and how long it was:
/// a 10 MB token must not become a 10 MB error line.
pub fn excerpt(text: &str) -> String {
    let mut chars = text.char_indices();
    match chars.nth(KEEP) {
        None => text.to_string(),
        Some((end, _)) => format!("{}… ({} bytes)", &text[..end], text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_and_long_text_cut_on_a_character() {
        assert_eq!(excerpt("brush"), "brush");
        let exact = "x".repeat(KEEP);
        assert_eq!(excerpt(&exact), exact);
        let long = "é".repeat(5_000_000);
        let e = excerpt(&long);
        assert!(e.starts_with(&"é".repeat(KEEP)), "{e}");
        assert!(e.ends_with("… (10000000 bytes)"), "{e}");
        assert!(e.len() < 120);
    }
}
