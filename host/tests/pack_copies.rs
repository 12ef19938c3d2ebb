//! No code is copied between the official packs: what two packs need alike lives in a
//! shared crate (`capstan-blender`: colours, angles, targets, the pack test helpers),
//! and this test fails when a copy comes back.
//!
//! It reads every `.rs` file under `capability-packs/*/src`, reduces it to its tokens
//! (comments and whitespace dropped, string literals kept whole), and fails when two
//! different packs hold
//!
//! - a file with the same tokens (a copied file, whatever its name or comments) that
//!   declares an item (a `lib.rs` of `mod` lines and the export macro is glue), or
//! - a function whose body has the same tokens as a function of another pack, once the
//!   body is big enough to be worth sharing: at least [`MIN_STATEMENTS`] statements or
//!   [`MIN_BODY_CHARS`] characters of tokens. One-line calls into a shared helper (a
//!   pack's `#[test]` that calls `capstan_blender::testing::...`) stay below it.
//!
//! The tokenizer is the part of Rust's lexical grammar this needs: line and nested
//! block comments, string, byte and raw string literals (a brace inside one is not a
//! brace), character literals and lifetimes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A body with this many statements (`;`-ended, or a final expression) is compared.
const MIN_STATEMENTS: usize = 3;
/// A body with this many characters of tokens is compared, whatever its statements.
const MIN_BODY_CHARS: usize = 150;

fn packs_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("capability-packs")
}

/// Rust source as tokens: whitespace and comments dropped, each literal one token.
fn tokens(source: &str) -> Vec<String> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(&chars, i) {
            out.push(chars[i..end].iter().collect());
            i = end;
        } else if c == '"' || ((c == 'b' || c == 'c') && at(i + 1) == '"') {
            let start = i;
            i += if c == '"' { 1 } else { 2 };
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(chars.len());
            out.push(chars[start..i].iter().collect());
        } else if c == '\'' || (c == 'b' && at(i + 1) == '\'') {
            let start = i;
            let quote = if c == '\'' { i } else { i + 1 };
            if at(quote + 1) == '\\' {
                // An escaped character literal: up to the closing quote.
                i = quote + 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i = (i + 1).min(chars.len());
            } else if at(quote + 2) == '\'' {
                i = quote + 3;
            } else {
                // A lifetime or a label: the quote, then its name as an identifier.
                i = quote + 1;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
            }
            out.push(chars[start..i].iter().collect());
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

/// The end of a raw string literal (`r"..."`, `r#"..."#`, `br#"..."#`) starting at `i`.
fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if chars.get(j) == Some(&'b') || chars.get(j) == Some(&'c') {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    // `r` must start a token, not end an identifier such as `for`.
    if i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') {
        return None;
    }
    j += 1;
    let hashes = chars[j..].iter().take_while(|c| **c == '#').count();
    j += hashes;
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"' && chars[j + 1..].iter().take(hashes).filter(|c| **c == '#').count() == hashes {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(chars.len())
}

/// One function with a body: its name and its body's tokens (inside the braces).
struct Function {
    name: String,
    body: Vec<String>,
}

impl Function {
    fn statements(&self) -> usize {
        let ended = self.body.iter().filter(|t| *t == ";").count();
        let tail = self.body.last().is_some_and(|t| t != ";");
        ended + usize::from(tail)
    }

    fn chars(&self) -> usize {
        self.body.iter().map(String::len).sum()
    }

    fn worth_sharing(&self) -> bool {
        self.statements() >= MIN_STATEMENTS || self.chars() >= MIN_BODY_CHARS
    }
}

/// Every `fn name ... { body }` in the tokens, nested ones included; declarations
/// without a body (`fn f();` in a trait) are skipped.
fn functions(tokens: &[String]) -> Vec<Function> {
    let mut found = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        if token != "fn" {
            continue;
        }
        let Some(name) = tokens.get(i + 1).filter(|n| n.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')) else {
            continue;
        };
        // The body opens at the first `{` outside the signature's parentheses and
        // brackets (`[u8; 3]` holds a `;` that does not end a declaration).
        let mut nesting = 0i32;
        let mut open = None;
        for (j, t) in tokens.iter().enumerate().skip(i + 2) {
            match t.as_str() {
                "(" | "[" => nesting += 1,
                ")" | "]" => nesting -= 1,
                "{" if nesting == 0 => {
                    open = Some(j);
                    break;
                }
                ";" if nesting == 0 => break,
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut depth = 0usize;
        let mut close = None;
        for (j, t) in tokens.iter().enumerate().skip(open) {
            match t.as_str() {
                "{" => depth += 1,
                "}" => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(j);
                        break;
                    }
                }
                _ => {}
            }
        }
        let close = close.unwrap_or_else(|| panic!("unbalanced braces after fn {name}"));
        found.push(Function { name: name.clone(), body: tokens[open + 1..close].to_vec() });
    }
    found
}

/// `(pack, path relative to the packs root, source)` of every `.rs` file under a
/// pack's `src/`.
fn pack_sources(root: &Path) -> Vec<(String, String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut sources = Vec::new();
    let mut packs: Vec<PathBuf> = std::fs::read_dir(root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("src").is_dir()).collect();
    packs.sort();
    for pack in packs {
        let name = pack.file_name().unwrap().to_string_lossy().into_owned();
        let mut files = Vec::new();
        walk(&pack.join("src"), &mut files);
        for file in files {
            let rel = file.strip_prefix(root).unwrap().display().to_string();
            sources.push((name.clone(), rel, std::fs::read_to_string(&file).unwrap()));
        }
    }
    sources
}

/// True when the tokens declare an item of their own. A file that declares none is glue
/// every pack writes alike (a `lib.rs` of `mod` lines, the registry's `include!` and the
/// export macro), not code to share.
fn declares_items(tokens: &[String]) -> bool {
    tokens.iter().any(|t| matches!(t.as_str(), "fn" | "struct" | "enum" | "trait" | "impl" | "const" | "static" | "type" | "macro_rules"))
}

/// Every copy between two different packs, one line each.
fn copies(sources: &[(String, String, String)]) -> Vec<String> {
    let mut files: BTreeMap<String, Vec<(&str, &str)>> = BTreeMap::new();
    let mut bodies: BTreeMap<String, Vec<(&str, &str, String)>> = BTreeMap::new();
    for (pack, path, source) in sources {
        let tokens = tokens(source);
        if declares_items(&tokens) {
            files.entry(tokens.join(" ")).or_default().push((pack, path));
        }
        for function in functions(&tokens) {
            if function.worth_sharing() {
                bodies.entry(function.body.join(" ")).or_default().push((pack, path, function.name));
            }
        }
    }
    let across_packs = |packs: &mut dyn Iterator<Item = &str>| {
        let mut packs: Vec<&str> = packs.collect();
        packs.sort();
        packs.dedup();
        packs.len() > 1
    };
    let mut found = Vec::new();
    for (text, holders) in &files {
        if !text.is_empty() && across_packs(&mut holders.iter().map(|(p, _)| *p)) {
            let names: Vec<&str> = holders.iter().map(|(_, path)| *path).collect();
            found.push(format!("identical files: {}", names.join(", ")));
        }
    }
    for holders in bodies.values() {
        if across_packs(&mut holders.iter().map(|(p, _, _)| *p)) {
            let names: Vec<String> = holders.iter().map(|(_, path, name)| format!("{path}: fn {name}")).collect();
            found.push(format!("identical function bodies: {}", names.join(", ")));
        }
    }
    found
}

#[test]
fn no_two_packs_hold_the_same_file_or_function_body() {
    let sources = pack_sources(&packs_root());
    let packs: std::collections::BTreeSet<&str> = sources.iter().map(|(p, _, _)| p.as_str()).collect();
    assert!(packs.len() >= 9 && sources.len() >= 50, "read too little: {} files of {packs:?}", sources.len());
    let found = copies(&sources);
    assert!(
        found.is_empty(),
        "code copied between packs; move it to a shared crate (capstan-blender, or capstan-sdk if it names no application) and use it from both:\n{}",
        found.join("\n")
    );
}

#[cfg(test)]
mod the_detector {
    use super::*;

    fn source(pack: &str, path: &str, text: &str) -> (String, String, String) {
        (pack.into(), path.into(), text.into())
    }

    const BODY: &str = "fn mix(a: f64, b: f64) -> f64 {\n    let x = a * 2.0;\n    let y = b / 2.0; // half\n    x + y\n}\n";

    #[test]
    fn comments_and_whitespace_do_not_hide_a_copy_but_a_brace_in_a_string_is_not_a_brace() {
        let t = tokens("/* a /* nested */ b */ let s = r#\"}\"#; let c = '}'; let l: &'a str = \"{\\\"\"; // }\n");
        assert_eq!(t, ["let", "s", "=", "r#\"}\"#", ";", "let", "c", "=", "'}'", ";", "let", "l", ":", "&", "'a", "str", "=", "\"{\\\"\"", ";"]);
        let reformatted = "fn mix(a: f64, b: f64) -> f64 { let x = a * 2.0; /* doubled */ let y = b / 2.0; x + y }";
        let found = copies(&[source("a", "a/src/x.rs", BODY), source("b", "b/src/y.rs", &format!("fn other() {{}}\n{reformatted}"))]);
        assert_eq!(found, ["identical function bodies: a/src/x.rs: fn mix, b/src/y.rs: fn mix"]);
    }

    #[test]
    fn identical_files_are_found_across_packs_only() {
        let found = copies(&[source("a", "a/src/x.rs", BODY), source("b", "b/src/x.rs", &format!("// another comment\n{BODY}"))]);
        assert!(found.iter().any(|f| f == "identical files: a/src/x.rs, b/src/x.rs"), "{found:?}");
        assert!(copies(&[source("a", "a/src/x.rs", BODY), source("a", "a/src/y.rs", BODY)]).is_empty(), "within one pack is not a copy");
        let glue = "mod families;\ninclude!(concat!(env!(\"OUT_DIR\"), \"/capabilities.rs\"));\ncapstan_sdk::export_pack!(families = families::families, capabilities = capabilities::all);\n";
        assert!(copies(&[source("a", "a/src/lib.rs", glue), source("b", "b/src/lib.rs", glue)]).is_empty(), "glue declares nothing");
    }

    #[test]
    fn small_bodies_and_differing_bodies_pass() {
        let small = "fn cap(key: &str) -> u32 { find(key).unwrap() }";
        assert!(copies(&[source("a", "a/src/x.rs", &format!("{small} fn a() {{}}")), source("b", "b/src/y.rs", &format!("{small} fn b() {{}}"))]).is_empty());
        let changed = BODY.replace("b / 2.0", "b / 3.0");
        assert!(copies(&[source("a", "a/src/x.rs", BODY), source("b", "b/src/y.rs", &changed)]).is_empty());
        let declared = functions(&tokens("trait T { fn f(&self); fn g(a: [u8; 3]) -> [u8; 3] { a } }"));
        assert!(declared.iter().map(|f| (f.name.as_str(), f.body.join(" "))).eq([("g", "a".to_string())]));
    }
}
