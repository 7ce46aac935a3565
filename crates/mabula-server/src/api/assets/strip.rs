//! The comments of a script taken out before it is sent: the pages' JSDoc (their types for
//! `tsc --checkJs`) and notes cost the browser nothing.
//!
//! A small tokenizer, as much of JavaScript's as telling a comment apart needs: strings (`'…'`,
//! `"…"`), template literals (with `${…}` nested to any depth, templates inside them too),
//! regular-expression literals and comments. Whether a `/` opens a regular expression or divides
//! is decided by the token before it, as the grammar does almost everywhere: after a name, a
//! number, a literal, `)` or `]` it divides; after an operator, `(`, `,`, `{`, `}`, `;`, a keyword
//! such as `return` or `typeof`, or at the start it opens a regular expression. Two shapes need a
//! parser and are read otherwise: `if (x) /re/…` (read as a division) and a division right after
//! a `}` (read as a regular expression). A regular expression cannot span lines, so one that
//! meets a line break was a division after all and the scan goes on from the `/`. The browser
//! tests check that every shipped script, stripped, is the same program (`scripts.test.mjs`).
//!
//! Nothing but comments changes: a comment's line breaks stay (so an error's line number is the
//! source's, and a line break that ends a statement still does), a comment within a line becomes
//! one space, a line left with only spaces becomes empty, and a `/*!` comment (a licence) stays.

/// `source` without its comments.
pub fn strip_comments(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    // Where the copy of the source has got to, and whether the current line lost a comment.
    let mut copied = 0;
    let mut line_lost = false;
    // One entry per template literal whose `${…}` is open: the braces opened since within it.
    let mut templates: Vec<usize> = Vec::new();
    let mut prev = Prev::Start;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                if line_lost {
                    out.push_str(&source[copied..i]);
                    trim_line_end(&mut out);
                    copied = i;
                    line_lost = false;
                }
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                out.push_str(&source[copied..i]);
                let end = memchr_newline(bytes, i);
                copied = end;
                i = end;
                line_lost = true;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = source[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |e| i + 2 + e + 2);
                if bytes.get(i + 2) == Some(&b'!') {
                    i = end;
                    continue;
                }
                out.push_str(&source[copied..i]);
                let breaks = source[i..end].matches('\n').count();
                if breaks == 0 {
                    // `a/* */b` stays two tokens.
                    let spaced = out.ends_with([' ', '\t', '\n'])
                        || bytes.get(end).is_none_or(|b| b.is_ascii_whitespace());
                    if !spaced {
                        out.push(' ');
                    }
                } else {
                    trim_line_end(&mut out);
                    for _ in 0..breaks {
                        out.push('\n');
                    }
                }
                copied = end;
                i = end;
                line_lost = true;
            }
            b'/' if prev.regex_may_follow() => match regex_end(bytes, i) {
                Some(end) => {
                    i = end;
                    prev = Prev::Operand;
                }
                None => {
                    i += 1;
                    prev = Prev::Punct(b'/');
                }
            },
            b'\'' | b'"' => {
                i = string_end(bytes, i);
                prev = Prev::Operand;
            }
            b'`' => match template_end(bytes, i + 1) {
                TemplateEnd::Closed(end) => {
                    i = end;
                    prev = Prev::Operand;
                }
                TemplateEnd::Substitution(end) => {
                    templates.push(0);
                    i = end;
                    prev = Prev::Punct(b'{');
                }
            },
            b'{' => {
                if let Some(depth) = templates.last_mut() {
                    *depth += 1;
                }
                i += 1;
                prev = Prev::Punct(b'{');
            }
            b'}' => {
                match templates.last_mut() {
                    Some(0) => {
                        templates.pop();
                        match template_end(bytes, i + 1) {
                            TemplateEnd::Closed(end) => {
                                i = end;
                                prev = Prev::Operand;
                            }
                            TemplateEnd::Substitution(end) => {
                                templates.push(0);
                                i = end;
                                prev = Prev::Punct(b'{');
                            }
                        }
                        continue;
                    }
                    Some(depth) => *depth -= 1,
                    None => {}
                }
                i += 1;
                prev = Prev::Punct(b'}');
            }
            b')' | b']' => {
                i += 1;
                prev = Prev::Operand;
            }
            _ if is_word_byte(b) => {
                let start = i;
                while i < bytes.len() && is_word_byte(bytes[i]) {
                    i += 1;
                }
                let word = &source[start..i];
                let after_dot = matches!(prev, Prev::Punct(b'.'));
                prev = if !after_dot && REGEX_AFTER.contains(&word) {
                    Prev::Keyword
                } else {
                    Prev::Operand
                };
            }
            _ => {
                i += 1;
                prev = Prev::Punct(b);
            }
        }
    }
    out.push_str(&source[copied..]);
    if line_lost {
        trim_line_end(&mut out);
    }
    out
}

/// The token before the current one, as far as a `/` cares.
#[derive(Clone, Copy)]
enum Prev {
    /// Nothing yet.
    Start,
    /// A name, number, literal, `)` or `]`: a `/` divides it.
    Operand,
    /// A keyword after which an expression starts.
    Keyword,
    /// Any other punctuator.
    Punct(u8),
}

impl Prev {
    fn regex_may_follow(self) -> bool {
        !matches!(self, Prev::Operand)
    }
}

/// The keywords an expression (so a regular expression) may follow.
const REGEX_AFTER: &[&str] = &[
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The index of the line break at or after `from`, or the end.
fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| from + p)
}

/// Drops the spaces that end `out` back to its last line break.
fn trim_line_end(out: &mut String) {
    let kept = out.trim_end_matches([' ', '\t', '\r']).len();
    out.truncate(kept);
}

/// Past the string literal opening at `start` (a line break ends an unclosed one).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Past the regular expression opening at `start`, or `None` if a line break comes first.
fn regex_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    let mut class = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1).is_some_and(|&b| b != b'\n') => i += 2,
            b'\n' | b'\r' => return None,
            b'[' => {
                class = true;
                i += 1;
            }
            b']' => {
                class = false;
                i += 1;
            }
            b'/' if !class => {
                i += 1;
                while i < bytes.len() && is_word_byte(bytes[i]) {
                    i += 1;
                }
                return Some(i);
            }
            _ => i += 1,
        }
    }
    None
}

enum TemplateEnd {
    /// Past the closing backquote.
    Closed(usize),
    /// Past a `${`.
    Substitution(usize),
}

/// Scans a template literal's text from `from` to its end or its next `${`.
fn template_end(bytes: &[u8], from: usize) -> TemplateEnd {
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'`' => return TemplateEnd::Closed(i + 1),
            b'$' if bytes.get(i + 1) == Some(&b'{') => return TemplateEnd::Substitution(i + 2),
            _ => i += 1,
        }
    }
    TemplateEnd::Closed(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::strip_comments as strip;

    #[test]
    fn strip_line_and_block_comments() {
        assert_eq!(strip("a = 1; // one\nb = 2;"), "a = 1;\nb = 2;");
        assert_eq!(strip("// only\n// lines\nx();\n"), "\n\nx();\n");
        assert_eq!(strip("a/* mid */b"), "a b");
        assert_eq!(
            strip("/**\n * @param {number} n\n */\nfunction f(n) {}\n"),
            "\n\n\nfunction f(n) {}\n"
        );
        assert_eq!(
            strip("  /** @type {X} */ (y)"),
            "   (y)",
            "a comment within a line is at most a space"
        );
        assert_eq!(strip("x(); // end"), "x();");
        assert_eq!(strip("x(); /* never closed"), "x();");
    }

    #[test]
    fn strip_keeps_line_breaks_that_end_statements() {
        // `return /* \n */ x` returns undefined; the line break must stay.
        assert_eq!(strip("return /*\n*/ x"), "return\n x");
    }

    #[test]
    fn strip_keeps_licence_comments() {
        let src = "/*! Mabula (c) MIT */\nx(); /* gone */";
        assert_eq!(strip(src), "/*! Mabula (c) MIT */\nx();");
    }

    #[test]
    fn strip_leaves_strings_alone() {
        let src = r#"fetch("http://x/y"); const s = '/* not */'; const t = "a\"//b"; // c"#;
        assert_eq!(
            strip(src),
            r#"fetch("http://x/y"); const s = '/* not */'; const t = "a\"//b";"#
        );
        assert_eq!(strip("'it\\'s // no'"), "'it\\'s // no'");
    }

    #[test]
    fn strip_leaves_regular_expressions_alone() {
        let cases = [
            r"const re = /\/\//g;",
            r"s.replace(/\/\*.*\*\//, '')",
            r"x = /[/]/.test(y)",
            r"x = a.match(/https?:\/\/[^/]+/)",
            r"return /\/\/ not a comment/.test(line)",
            r"if (ok) { x(); } /=\/\//.test(s)",
            r"f(a, /\/*/)",
            r"x = !/^\/\//.test(y)",
            r"x = c ? /a\/\//: /b\/\//",
        ];
        for src in cases {
            assert_eq!(strip(src), src, "{src}");
        }
    }

    #[test]
    fn strip_tells_division_from_regular_expressions() {
        assert_eq!(strip("x = a / b; // half"), "x = a / b;");
        assert_eq!(strip("x = (a + b) / 2 / c; // c"), "x = (a + b) / 2 / c;");
        assert_eq!(strip("x = a[0] / b[1] /* c */;"), "x = a[0] / b[1] ;");
        assert_eq!(strip("x = 1 / 2 // two\n/ 3"), "x = 1 / 2\n/ 3");
        assert_eq!(strip("x = a.return / 2 // d"), "x = a.return / 2");
        assert_eq!(strip("x /= 2; // e"), "x /= 2;");
        // Read as a regular expression, but it meets a line break: a division after all.
        assert_eq!(strip("x = {} / 2\ny = '//'"), "x = {} / 2\ny = '//'");
    }

    #[test]
    fn strip_leaves_template_literals_alone() {
        let cases = [
            "const u = `http://${host}/x // y`;",
            "`a ${b ? `c ${'//'} d` : `/* e */`} f`",
            "`${ { a: 1 }.a } // g`",
            "`${`${`${'//'}`}`}`",
            "`\\` // h`",
            "`${a}/${b}` // still a template",
        ];
        for src in &cases[..5] {
            assert_eq!(strip(src), *src, "{src}");
        }
        assert_eq!(strip(cases[5]), "`${a}/${b}`");
        assert_eq!(
            strip("h(`x ${f({ a: 1 })} y`); // z\nw(); /* v */"),
            "h(`x ${f({ a: 1 })} y`);\nw();"
        );
        // A comment in a substitution is code's.
        assert_eq!(strip("`a${b /* c */}d`"), "`a${b }d`");
    }

    #[test]
    fn strip_keeps_non_ascii_text() {
        assert_eq!(strip("t('Zurück') // über\nä = 1"), "t('Zurück')\nä = 1");
    }
}
