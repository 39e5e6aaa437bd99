//! The `.map` tokens, read one at a time from the text. Tokens borrow the text: a level of
//! 64 MiB is parsed in about its own size, where a list of owned tokens took some 30 times
//! that (a face line of 45 bytes is 22 tokens).

use super::map_error::MapError;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Tok<'a> {
    Open,
    Close,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Quoted(&'a str),
    Word(&'a str),
}

pub(super) struct Lexer<'a> {
    text: &'a str,
    /// Byte offset of the first character not yet scanned.
    at: usize,
    /// Line of `at`, from 1.
    line: usize,
    /// The next token and its line, scanned ahead; `None` at the end of the text.
    ahead: Option<(Tok<'a>, usize)>,
    /// The line of the last token, for errors at the end of the text.
    last_line: usize,
    /// A text that cannot be split into tokens: reported by the next error or at the end.
    fault: Option<MapError>,
    pub(super) file: &'a Path,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str, file: &'a Path) -> Self {
        let mut lx = Lexer {
            text,
            at: 0,
            line: 1,
            ahead: None,
            last_line: 1,
            fault: None,
            file,
        };
        lx.ahead = lx.scan();
        lx
    }

    /// The line of the next token, or of the last one at the end.
    pub(super) fn line(&self) -> usize {
        self.ahead.map_or(self.last_line, |t| t.1)
    }

    pub(super) fn err<T>(&mut self, cause: impl Into<String>) -> Result<T, MapError> {
        Err(self.fault.take().unwrap_or_else(|| MapError {
            file: self.file.to_path_buf(),
            line: self.line(),
            cause: cause.into(),
        }))
    }

    /// The text's own fault, if scanning stopped on one.
    pub(super) fn finish(&mut self) -> Result<(), MapError> {
        match self.fault.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    pub(super) fn peek(&self) -> Option<Tok<'a>> {
        self.ahead.map(|t| t.0)
    }

    pub(super) fn peek_line(&self) -> Option<usize> {
        self.ahead.map(|t| t.1)
    }

    pub(super) fn next(&mut self) -> Option<Tok<'a>> {
        let t = self.ahead?;
        self.last_line = t.1;
        self.ahead = self.scan();
        Some(t.0)
    }

    fn scan(&mut self) -> Option<(Tok<'a>, usize)> {
        if self.fault.is_some() {
            return None;
        }
        let bytes = self.text.as_bytes();
        loop {
            let c = self.text[self.at..].chars().next()?;
            match c {
                '\n' => self.line += 1,
                '/' if bytes.get(self.at + 1) == Some(&b'/') => {
                    self.at = self.text[self.at..]
                        .find('\n')
                        .map_or(bytes.len(), |n| self.at + n);
                    continue;
                }
                c if c.is_whitespace() => {}
                _ => break,
            }
            self.at += c.len_utf8();
        }
        let line = self.line;
        let start = self.at;
        let single = match bytes[start] {
            b'{' => Some(Tok::Open),
            b'}' => Some(Tok::Close),
            b'(' => Some(Tok::LParen),
            b')' => Some(Tok::RParen),
            b'[' => Some(Tok::LBracket),
            b']' => Some(Tok::RBracket),
            _ => None,
        };
        if let Some(t) = single {
            self.at += 1;
            return Some((t, line));
        }
        if bytes[start] == b'"' {
            return self.quoted(start, line);
        }
        let end = self.text[start..]
            .find(|c: char| c.is_whitespace() || "{}()[]\"".contains(c))
            .map_or(bytes.len(), |n| start + n);
        self.at = end;
        Some((Tok::Word(&self.text[start..end]), line))
    }

    /// A quoted string ends on its line: Quake's strings hold no newline.
    fn quoted(&mut self, start: usize, line: usize) -> Option<(Tok<'a>, usize)> {
        let rest = &self.text[start + 1..];
        let line_end = rest.find('\n').unwrap_or(rest.len());
        match rest[..line_end].find('"') {
            Some(n) => {
                self.at = start + 1 + n + 1;
                Some((Tok::Quoted(&rest[..n]), line))
            }
            None => {
                self.fault = Some(MapError {
                    file: self.file.to_path_buf(),
                    line,
                    cause: "unterminated quoted string".into(),
                });
                None
            }
        }
    }
}
