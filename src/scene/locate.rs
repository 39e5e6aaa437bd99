//! Where things are in a scene file's text: where an entry of a list starts (errors found
//! after parsing, a body whose OBJ does not load or a family's data that does not build,
//! name the line of the entry), and the first string holding too many escapes (the RON
//! reader takes time quadratic in the escapes of one string, so those are refused first).
//!
//! A small scan of the RON text, not a second parser: it follows nesting, strings and
//! comments far enough to find `key: [` in the outermost struct and count the list's
//! entries.

/// The 1-based line where entry `index` of the outermost struct's list `key` starts.
pub fn entry_line(text: &str, key: &str, index: usize) -> Option<usize> {
    let mut scan = Scanner::new(text);
    let list_depth = scan.find_list(key)?;
    let mut entry = 0;
    let mut at_entry_start = true;
    while let Some((line, c)) = scan.next_significant() {
        if at_entry_start && c != ']' {
            if entry == index {
                return Some(line);
            }
            at_entry_start = false;
        }
        match c {
            '(' | '[' | '{' => scan.depth += 1,
            ')' | ']' | '}' => {
                if scan.depth == list_depth {
                    return None;
                }
                scan.depth -= 1;
            }
            ',' if scan.depth == list_depth => {
                entry += 1;
                at_entry_start = true;
            }
            _ => {}
        }
    }
    None
}

/// The line of the first string literal holding more than `max` escapes (`\n`, `\"`, …).
pub fn string_with_escapes_over(text: &str, max: usize) -> Option<usize> {
    let mut scan = Scanner::new(text);
    loop {
        let c = scan.bump()?;
        match c {
            '"' => {
                let line = scan.line;
                if scan.skip_string() > max {
                    return Some(line);
                }
            }
            '/' if scan.chars.peek() == Some(&'/') => scan.skip_line(),
            '/' if scan.chars.peek() == Some(&'*') => scan.skip_block(),
            _ => {}
        }
    }
}

struct Scanner<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    depth: usize,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            chars: text.chars().peekable(),
            line: 1,
            depth: 0,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// The next character outside strings, comments and white space, with its line.
    fn next_significant(&mut self) -> Option<(usize, char)> {
        loop {
            let c = self.bump()?;
            match c {
                '"' => {
                    self.skip_string();
                }
                '/' if self.chars.peek() == Some(&'/') => self.skip_line(),
                '/' if self.chars.peek() == Some(&'*') => self.skip_block(),
                c if c.is_whitespace() => {}
                c => return Some((self.line, c)),
            }
        }
    }

    /// Moves past a string's closing quote; returns how many escapes it held.
    fn skip_string(&mut self) -> usize {
        let mut escapes = 0;
        while let Some(c) = self.bump() {
            match c {
                '\\' => {
                    escapes += 1;
                    self.bump();
                }
                '"' => break,
                _ => {}
            }
        }
        escapes
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                return;
            }
        }
    }

    fn skip_block(&mut self) {
        self.bump();
        let mut last = ' ';
        while let Some(c) = self.bump() {
            if last == '*' && c == '/' {
                return;
            }
            last = c;
        }
    }

    /// Moves past `key: [` at depth 1 and returns the list's depth.
    fn find_list(&mut self, key: &str) -> Option<usize> {
        let mut word = String::new();
        while let Some((_, c)) = self.next_significant() {
            match c {
                '(' | '[' | '{' => self.depth += 1,
                ')' | ']' | '}' => self.depth = self.depth.saturating_sub(1),
                ':' if self.depth == 1 && word == key => {
                    let (_, open) = self.next_significant()?;
                    if open != '[' {
                        return None;
                    }
                    self.depth += 1;
                    return Some(self.depth);
                }
                _ => {}
            }
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
            } else {
                word.clear();
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENE: &str = r#"// a scene
(
    name: "two",
    description: "bodies: [ not this one ], (\"tricky\")",
    materials: [(name: "m", friction: 0.5)],
    bodies: [
        (name: "floor", shape: Box(half_extents: (5, 0.1, 5))),
        /* a comment, with a comma */
        (
            name: "ball",
            shape: Sphere(radius: 0.5),
        ),
        (name: "last"),
    ],
    families: [Bsp((map: "x.map"))],
)
"#;

    #[test]
    fn entries_are_found_past_strings_comments_and_nesting() {
        assert_eq!(entry_line(SCENE, "bodies", 0), Some(7));
        assert_eq!(entry_line(SCENE, "bodies", 1), Some(9));
        assert_eq!(entry_line(SCENE, "bodies", 2), Some(13));
        assert_eq!(entry_line(SCENE, "bodies", 3), None);
        assert_eq!(entry_line(SCENE, "families", 0), Some(15));
        assert_eq!(entry_line(SCENE, "materials", 0), Some(5));
        assert_eq!(entry_line(SCENE, "missing", 0), None);
    }

    #[test]
    fn strings_with_many_escapes_are_found_by_line() {
        let text = "(\n  name: \"a\\nb\",\n  // \"\\n\\n\\n\\n\"\n  description: \"\\n\\n\\n\",\n)";
        assert_eq!(string_with_escapes_over(text, 2), Some(4));
        assert_eq!(string_with_escapes_over(text, 3), None);
        assert_eq!(string_with_escapes_over("\"\\", 0), Some(1));
    }

    #[test]
    fn the_scan_is_linear_and_never_panics_on_broken_text() {
        for text in [
            "",
            "(",
            "(bodies: [",
            "(bodies: 3)",
            "/*",
            "((((]]]]",
            "(bodies: []",
        ] {
            assert_eq!(entry_line(text, "bodies", 0), None, "{text:?}");
        }
        // A cut entry still starts where it starts.
        assert_eq!(entry_line("(bodies: [(\"", "bodies", 0), Some(1));
        let long = format!("(bodies: [{}(name: \"x\")])", "(),".repeat(100_000));
        assert_eq!(entry_line(&long, "bodies", 100_000), Some(1));
    }
}
