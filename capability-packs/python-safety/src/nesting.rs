//! How deep a script nests, measured on its tokens before the parser sees it.
//!
//! Why before: the parser descends recursively, one call chain per level of brackets,
//! prefix operators (`- - - x`, `not not x`), `lambda: lambda: ...`, ternary `else`
//! chains, right-associative `**`, f-strings inside f-strings and indented blocks. A
//! script of `-` repeated a million times would exhaust any stack. So the tokens are
//! counted first, with the same lexer the parser uses, and a script whose estimate
//! passes the limit is rejected before the parser runs; the parser's stack stays
//! bounded by the limit whatever the input.
//!
//! The estimate errs on the deep side: every open bracket and f-string counts a level,
//! and prefix-like tokens count one each until a comma (outside a `lambda`'s parameter
//! list) or the end of the statement shows the chain is over. Real scripts stay far
//! below the limit; a list of a thousand negative numbers counts one level, not a
//! thousand, because each comma ends its chain.

use ruff_ast::token::TokenKind;
use ruff_parser::{Mode, lexer};

/// Nesting (blocks, brackets, operator chains) beyond this is rejected. The analysis
/// walk stops at the same depth, so nothing it would accept is refused here.
pub const MAX_DEPTH: usize = crate::analyze::MAX_DEPTH;
/// Bracket nesting beyond this is rejected on its own.
pub const MAX_BRACKET_DEPTH: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TooDeep {
    Brackets,
    Code,
}

impl TooDeep {
    pub fn message(self) -> String {
        match self {
            TooDeep::Brackets => format!("brackets nested more than {MAX_BRACKET_DEPTH} deep"),
            TooDeep::Code => format!("code nested more than {MAX_DEPTH} levels deep"),
        }
    }
}

/// The first place `source` nests too deep: the kind, and the byte offset of the start
/// of the line it happens on.
pub fn first_too_deep(source: &str) -> Option<(TooDeep, usize)> {
    let kind = scan(source)?;
    // The lexer gives no offsets, so the line is found by scanning prefixes that end
    // at line ends: a prefix holds the same tokens as the whole script up to its cut,
    // so whether it is too deep grows with its length (only on the rejection path).
    let ends: Vec<usize> = source.match_indices('\n').map(|(i, _)| i + 1).chain(std::iter::once(source.len())).collect();
    let line = ends.partition_point(|&end| scan(&source[..end]).is_none());
    let start = if line == 0 { 0 } else { ends[line - 1] };
    Some((kind, start.min(source.len())))
}

/// One level of brackets (or the statement itself, at the bottom of the stack).
#[derive(Default)]
struct Frame {
    /// Prefix-like tokens since the last comma in this frame.
    chain: usize,
    /// `lambda`s whose parameter list (up to their `:`) is still open here.
    lambda_params: usize,
}

fn scan(source: &str) -> Option<TooDeep> {
    let mut lexer = lexer::lex(source, Mode::Module);
    let mut blocks = 0usize;
    let mut frames = vec![Frame::default()];
    let mut depth = 0usize; // frames beyond the first + every frame's chain
    let mut previous = TokenKind::Newline;
    loop {
        let kind = lexer.next_token();
        match kind {
            TokenKind::EndOfFile => return None,
            TokenKind::Indent => blocks += 1,
            TokenKind::Dedent => blocks = blocks.saturating_sub(1),
            TokenKind::Newline | TokenKind::Semi => {
                frames.truncate(1);
                frames[0] = Frame::default();
                depth = 0;
            }
            TokenKind::Lpar | TokenKind::Lsqb | TokenKind::Lbrace | TokenKind::FStringStart | TokenKind::TStringStart => {
                frames.push(Frame::default());
                depth += 1;
                if frames.len() - 1 > MAX_BRACKET_DEPTH {
                    return Some(TooDeep::Brackets);
                }
            }
            TokenKind::Rpar | TokenKind::Rsqb | TokenKind::Rbrace | TokenKind::FStringEnd | TokenKind::TStringEnd if frames.len() > 1 => {
                let frame = frames.pop().unwrap_or_default();
                depth -= 1 + frame.chain;
            }
            TokenKind::Comma => {
                let frame = frames.last_mut().expect("the statement frame is never popped");
                if frame.lambda_params == 0 {
                    depth -= frame.chain;
                    frame.chain = 0;
                }
            }
            TokenKind::Colon => {
                let frame = frames.last_mut().expect("the statement frame is never popped");
                frame.lambda_params = frame.lambda_params.saturating_sub(1);
            }
            _ => {}
        }
        if prefix_like(kind, previous) {
            let frame = frames.last_mut().expect("the statement frame is never popped");
            frame.chain += 1;
            if kind == TokenKind::Lambda {
                frame.lambda_params += 1;
            }
            depth += 1;
        }
        if blocks + depth > MAX_DEPTH {
            return Some(TooDeep::Code);
        }
        if !matches!(kind, TokenKind::Comment | TokenKind::NonLogicalNewline) {
            previous = kind;
        }
    }
}

/// A token after which the parser descends for what follows: prefix operators, the
/// `else` of a conditional expression, `lambda`, `await`, `**`.
fn prefix_like(kind: TokenKind, previous: TokenKind) -> bool {
    match kind {
        TokenKind::Not | TokenKind::Await | TokenKind::Lambda | TokenKind::Else | TokenKind::DoubleStar | TokenKind::Tilde => true,
        TokenKind::Minus | TokenKind::Plus => !ends_operand(previous),
        _ => false,
    }
}

/// Whether a `-` or `+` after this token is binary (it follows an operand).
fn ends_operand(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Name
            | TokenKind::Int
            | TokenKind::Float
            | TokenKind::Complex
            | TokenKind::String
            | TokenKind::FStringEnd
            | TokenKind::TStringEnd
            | TokenKind::Rpar
            | TokenKind::Rsqb
            | TokenKind::Rbrace
            | TokenKind::True
            | TokenKind::False
            | TokenKind::None
            | TokenKind::Ellipsis
            | TokenKind::Match
            | TokenKind::Case
            | TokenKind::Type
            | TokenKind::Lazy
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_ok(source: &str) -> bool {
        scan(source).is_none()
    }

    #[test]
    fn brackets_are_limited() {
        let ok = format!("x = {}1{}\n", "(".repeat(MAX_BRACKET_DEPTH), ")".repeat(MAX_BRACKET_DEPTH));
        let deep = format!("x = {}1{}\n", "(".repeat(MAX_BRACKET_DEPTH + 1), ")".repeat(MAX_BRACKET_DEPTH + 1));
        assert!(depth_ok(&ok));
        assert_eq!(scan(&deep), Some(TooDeep::Brackets));
    }

    #[test]
    fn brackets_inside_strings_and_comments_do_not_count() {
        let s = format!("x = '{}'  # {}\n", "(".repeat(500), "[".repeat(500));
        assert!(depth_ok(&s));
    }

    #[test]
    fn prefix_chains_are_limited() {
        for op in ["-", "+", "~", "not ", "lambda: ", "await "] {
            let ok = format!("x = {}1\n", op.repeat(MAX_DEPTH / 2));
            let deep = format!("x = {}1\n", op.repeat(MAX_DEPTH + 1));
            assert!(depth_ok(&ok), "{op}");
            assert_eq!(scan(&deep), Some(TooDeep::Code), "{op}");
        }
        let ternary = format!("x = {}0\n", "1 if c else ".repeat(MAX_DEPTH + 1));
        assert_eq!(scan(&ternary), Some(TooDeep::Code));
        let power = format!("x = {}2\n", "2 ** ".repeat(MAX_DEPTH + 1));
        assert_eq!(scan(&power), Some(TooDeep::Code));
        let lambdas = format!("f = {}0\n", "lambda a, b: ".repeat(MAX_DEPTH + 1));
        assert_eq!(scan(&lambdas), Some(TooDeep::Code));
    }

    #[test]
    fn commas_end_chains_so_long_literals_pass() {
        let verts: Vec<String> = (0..5000).map(|i| format!("(-{i}.0, -1.0, +2.0)")).collect();
        assert!(depth_ok(&format!("verts = [\n{}\n]\n", verts.join(",\n"))));
        let values: Vec<String> = (0..500).map(|i| format!("a{i} if c else -b{i}")).collect();
        assert!(depth_ok(&format!("f({})\n", values.join(", "))));
        assert!(depth_ok(&"x = a - b - c - d\n".repeat(1000)));
        assert!(depth_ok(&format!("x = {}1\n", "a - ".repeat(5000))));
    }

    #[test]
    fn nested_f_strings_count_as_brackets() {
        let deep = format!("x = {}1{}\n", "f\"{".repeat(70), "}\"".repeat(70));
        assert!(scan(&deep).is_some());
    }

    #[test]
    fn indented_blocks_count() {
        let mut s = String::new();
        for level in 0..=MAX_DEPTH {
            s.push_str(&format!("{}if x:\n", " ".repeat(level)));
        }
        s.push_str(&format!("{}pass\n", " ".repeat(MAX_DEPTH + 1)));
        assert_eq!(scan(&s), Some(TooDeep::Code));
    }

    #[test]
    fn the_line_of_the_first_deep_spot_is_found() {
        let source = format!("a = 1\n\"\"\"doc\nstring\"\"\"\nb = 2\nx = {}1\n", "-".repeat(MAX_DEPTH + 5));
        let (kind, at) = first_too_deep(&source).unwrap();
        assert_eq!(kind, TooDeep::Code);
        assert_eq!(&source[at..at + 4], "x = ");
    }
}
