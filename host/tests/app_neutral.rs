//! The generic host names no application (issue 31 §1, acceptance).
//!
//! Every `.rs` file under `host/src` is read, except the app units' folders and the one
//! registration list (`host/src/app_units.rs`). A line fails when its code, once its
//! comments are taken out, contains `blender` or `freecad` (case-insensitive). Code
//! includes string literals, so `"blender"` in a generic file fails, and a line inside a
//! multi-line string literal is code too.
//!
//! Why comments are exempt: docs may say why a generic rule exists ("a command probe
//! would start the app's whole runtime"), and naming a real app there decides nothing.
//! Identifiers, strings and paths do decide behaviour, so they are what this test
//! forbids. The comment scanner tracks `"..."`, raw `r#"..."#` strings, char literals
//! (so `'"'` opens no string) and nested `/* */` blocks; a `//` inside a string is text,
//! not a comment, so it cannot hide a name.
//!
//! Why the exempt folders come from `app_units.rs`: one source of truth. Registering a
//! unit there is the only way to exempt its folder, so the exemption cannot drift from
//! the registration list. The parser accepts only plain folder names (no `/`, `\`, `.`
//! or `..`, not empty), and every listed folder must exist: an entry such as `"."` or
//! `""` would otherwise exempt the whole host, and a stale entry would exempt a folder
//! that could later reappear holding generic code.
//!
//! The failure message lists every offender as `file:line: text`, grouped and counted by
//! file, so a developer sees the whole list at once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Application names the generic host must not contain (compared lowercased).
const NEEDLES: [&str; 2] = ["blender", "freecad"];
/// The registration list, relative to `host/src`; exempt itself.
const REGISTRATION_LIST: &str = "app_units.rs";
/// The const in the registration list naming the unit folders.
const UNIT_FOLDERS_CONST: &str = "UNIT_FOLDERS";

// ---------------------------------------------------------------------------
// The comment scanner
// ---------------------------------------------------------------------------

#[derive(Clone, Copy)]
enum State {
    Code,
    LineComment,
    /// Rust block comments nest; the depth says how many are open.
    BlockComment(u32),
    Str,
    /// A raw string opened with this many `#`.
    RawStr(usize),
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// At `chars[i] == 'r'`: the number of `#` when a raw string opens here (`r"`, `r#"`,
/// `br"`, `cr#"`), or None (an identifier such as `for`, a raw identifier `r#type`).
fn raw_string_opening(chars: &[char], i: usize) -> Option<usize> {
    let mut start = i;
    while start > 0 && is_ident_char(chars[start - 1]) {
        start -= 1;
    }
    let prefix: String = chars[start..i].iter().collect();
    if !(prefix.is_empty() || prefix == "b" || prefix == "c") {
        return None;
    }
    let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
    (chars.get(i + 1 + hashes) == Some(&'"')).then_some(hashes)
}

/// At `chars[i] == '\''`: the length of a char literal starting here (`'x'`, `'"'`,
/// `'\''`, `'\u{1F600}'`), or None when this quote starts a lifetime or a label.
fn char_literal_len(chars: &[char], i: usize) -> Option<usize> {
    match chars.get(i + 1)? {
        '\\' => {
            // Skip the escaped character itself, then find the closing quote nearby.
            (i + 3..(i + 13).min(chars.len())).take_while(|j| chars[*j] != '\n').find(|j| chars[*j] == '\'').map(|j| j - i + 1)
        }
        '\n' | '\'' => None,
        _ => (chars.get(i + 2) == Some(&'\'')).then_some(3),
    }
}

/// The code of each line of `src` (split at `\n`): comments replaced by one space,
/// string and char literals kept. A line inside a multi-line string is all code.
pub fn code_of_lines(src: &str) -> Vec<String> {
    let chars: Vec<char> = src.chars().collect();
    let mut lines = vec![String::new()];
    let mut state = State::Code;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            lines.push(String::new());
            if matches!(state, State::LineComment) {
                state = State::Code;
            }
            i += 1;
            continue;
        }
        let line = lines.last_mut().expect("one line at least");
        match state {
            State::Code => {
                if c == '/' && next == Some('/') {
                    line.push(' ');
                    state = State::LineComment;
                    i += 2;
                } else if c == '/' && next == Some('*') {
                    line.push(' ');
                    state = State::BlockComment(1);
                    i += 2;
                } else if c == '"' {
                    line.push(c);
                    state = State::Str;
                    i += 1;
                } else if let Some(hashes) = (c == 'r').then(|| raw_string_opening(&chars, i)).flatten() {
                    line.extend(&chars[i..i + 2 + hashes]);
                    state = State::RawStr(hashes);
                    i += 2 + hashes;
                } else if let Some(len) = (c == '\'').then(|| char_literal_len(&chars, i)).flatten() {
                    line.extend(&chars[i..i + len]);
                    i += len;
                } else {
                    line.push(c);
                    i += 1;
                }
            }
            State::LineComment => i += 1,
            State::BlockComment(depth) => {
                if c == '/' && next == Some('*') {
                    state = State::BlockComment(depth + 1);
                    i += 2;
                } else if c == '*' && next == Some('/') {
                    state = if depth == 1 { State::Code } else { State::BlockComment(depth - 1) };
                    i += 2;
                } else {
                    i += 1;
                }
            }
            State::Str => {
                line.push(c);
                match (c, next) {
                    // An escaped character never closes the string; an escaped line end
                    // still ends the line.
                    ('\\', Some(n)) if n != '\n' => {
                        line.push(n);
                        i += 2;
                    }
                    ('"', _) => {
                        state = State::Code;
                        i += 1;
                    }
                    _ => i += 1,
                }
            }
            State::RawStr(hashes) => {
                line.push(c);
                let closes = c == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#'));
                if closes {
                    line.extend(&chars[i + 1..i + 1 + hashes]);
                    state = State::Code;
                    i += 1 + hashes;
                } else {
                    i += 1;
                }
            }
        }
    }
    lines
}

/// The 1-based numbers of the lines whose code names an application.
pub fn offending_lines(src: &str) -> Vec<usize> {
    code_of_lines(src)
        .iter()
        .enumerate()
        .filter(|(_, code)| {
            let code = code.to_lowercase();
            NEEDLES.iter().any(|n| code.contains(n))
        })
        .map(|(i, _)| i + 1)
        .collect()
}

// ---------------------------------------------------------------------------
// The registration list
// ---------------------------------------------------------------------------

/// The folder names in `pub const UNIT_FOLDERS: &[&str] = &["blender", ...];` of the
/// registration list's text. Comments are ignored (a commented-out definition does not
/// count); exactly one definition must exist, holding only plain string literals.
pub fn unit_folders(registration: &str) -> Result<Vec<String>, String> {
    let code: Vec<char> = code_of_lines(registration).join("\n").chars().collect();
    let text: String = code.iter().collect();
    let definitions: Vec<usize> = text
        .match_indices(UNIT_FOLDERS_CONST)
        .map(|(at, _)| at)
        .filter(|at| {
            let before = &text[..*at];
            let end = text[*at + UNIT_FOLDERS_CONST.len()..].chars().next();
            !end.is_some_and(is_ident_char) && before.trim_end().ends_with("const") && !before.ends_with(|c: char| is_ident_char(c))
        })
        .collect();
    let at = match definitions.as_slice() {
        [] => return Err(format!("no `const {UNIT_FOLDERS_CONST}` is defined")),
        [one] => *one,
        _ => return Err(format!("`const {UNIT_FOLDERS_CONST}` is defined {} times", definitions.len())),
    };
    // Work on chars from here: byte offset -> char index.
    let mut i = text[..at].chars().count() + UNIT_FOLDERS_CONST.len();
    let skip_ws = |i: &mut usize| {
        while *i < code.len() && code[*i].is_whitespace() {
            *i += 1;
        }
    };
    let expect = |i: &mut usize, want: char, what: &str| -> Result<(), String> {
        skip_ws(i);
        match code.get(*i) {
            Some(c) if *c == want => {
                *i += 1;
                Ok(())
            }
            other => Err(format!("expected `{want}` {what}, found {}", other.map(|c| format!("`{c}`")).unwrap_or_else(|| "the end".into()))),
        }
    };
    // Skip the type annotation up to the `=`.
    while i < code.len() && code[i] != '=' && code[i] != ';' {
        i += 1;
    }
    expect(&mut i, '=', "after the const's type")?;
    expect(&mut i, '&', "before the folder list")?;
    expect(&mut i, '[', "opening the folder list")?;
    let mut folders = Vec::new();
    loop {
        skip_ws(&mut i);
        if code.get(i) == Some(&']') {
            i += 1;
            break;
        }
        expect(&mut i, '"', "opening a folder name")?;
        let start = i;
        while i < code.len() && code[i] != '"' {
            if code[i] == '\\' || code[i] == '\n' {
                return Err("a folder name holds an escape or a line break".into());
            }
            i += 1;
        }
        let name: String = code[start..i].iter().collect();
        expect(&mut i, '"', "closing a folder name")?;
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) || name.starts_with('.') {
            return Err(format!("{name:?} is not a plain folder name under host/src"));
        }
        if folders.contains(&name) {
            return Err(format!("{name:?} is listed twice"));
        }
        folders.push(name);
        skip_ws(&mut i);
        match code.get(i) {
            Some(',') => i += 1,
            Some(']') => {}
            other => return Err(format!("expected `,` or `]` in the folder list, found {other:?}")),
        }
    }
    expect(&mut i, ';', "ending the const")?;
    Ok(folders)
}

// ---------------------------------------------------------------------------
// The scan of host/src
// ---------------------------------------------------------------------------

struct Offender {
    file: String,
    line: usize,
    text: String,
}

/// Every `.rs` file under `dir`, recursively, skipping the exempt paths (relative to
/// `root`). Problems (unreadable folders, symlinked folders) are collected, not skipped.
fn rust_files(root: &Path, dir: &Path, exempt_dirs: &[PathBuf], files: &mut Vec<PathBuf>, problems: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return problems.push(format!("{}: cannot list: {e}", dir.display())),
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.map_err(|e| problems.push(format!("{}: {e}", dir.display()))).ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let rel = path.strip_prefix(root).expect("under the root").to_path_buf();
        let Ok(kind) = entry.file_type() else {
            problems.push(format!("{}: cannot tell its type", path.display()));
            continue;
        };
        let is_dir = if kind.is_symlink() { std::fs::metadata(&path).map(|m| m.is_dir()).unwrap_or(false) } else { kind.is_dir() };
        if is_dir {
            if exempt_dirs.contains(&rel) {
                continue;
            }
            if kind.is_symlink() {
                problems.push(format!("{}: a symlinked folder is not scanned; make it a real folder", path.display()));
                continue;
            }
            rust_files(root, &path, exempt_dirs, files, problems);
        } else if path.extension().is_some_and(|e| e == "rs") && rel != Path::new(REGISTRATION_LIST) {
            files.push(path);
        }
    }
}

#[test]
fn the_generic_host_names_no_application() {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = manifest_dir.parent().expect("host/ sits in the workspace");
    let src = manifest_dir.join("src");
    let shown = |p: &Path| p.strip_prefix(workspace).unwrap_or(p).display().to_string();

    let registration_path = src.join(REGISTRATION_LIST);
    let registration = std::fs::read_to_string(&registration_path).unwrap_or_else(|e| {
        panic!("{}: cannot read the registration list of app units ({e}); it must define `pub const {UNIT_FOLDERS_CONST}: &[&str]`", shown(&registration_path))
    });
    let folders = unit_folders(&registration).unwrap_or_else(|e| panic!("{}: {e}", shown(&registration_path)));
    let mut problems = Vec::new();
    for folder in &folders {
        if !src.join(folder).is_dir() {
            problems.push(format!("{}: unit folder {folder:?} is listed but {} is not a folder", shown(&registration_path), shown(&src.join(folder))));
        }
    }
    let exempt_dirs: Vec<PathBuf> = folders.iter().map(PathBuf::from).collect();

    let mut files = Vec::new();
    rust_files(&src, &src, &exempt_dirs, &mut files, &mut problems);
    assert!(files.iter().any(|f| f.ends_with("src/lib.rs")), "the scan must cover the host's sources; found {} files", files.len());

    let mut offenders = Vec::new();
    for file in &files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                problems.push(format!("{}: cannot read as UTF-8: {e}", shown(file)));
                continue;
            }
        };
        let lines: Vec<&str> = text.split('\n').collect();
        for line in offending_lines(&text) {
            offenders.push(Offender { file: shown(file), line, text: lines[line - 1].trim().to_string() });
        }
    }

    if offenders.is_empty() && problems.is_empty() {
        return;
    }
    let mut by_file: BTreeMap<&str, Vec<&Offender>> = BTreeMap::new();
    for o in &offenders {
        by_file.entry(&o.file).or_default().push(o);
    }
    let mut report = String::new();
    for p in &problems {
        report.push_str(&format!("{p}\n"));
    }
    if !offenders.is_empty() {
        report.push_str(&format!(
            "{} lines in {} generic host files name an application ({}); move them into an app unit (exempt folders: {:?}) or the registration list:\n",
            offenders.len(),
            by_file.len(),
            NEEDLES.join(", "),
            folders
        ));
        for (file, list) in &by_file {
            report.push_str(&format!("-- {file} ({} lines)\n", list.len()));
            for o in list {
                report.push_str(&format!("{}:{}: {}\n", o.file, o.line, o.text));
            }
        }
    }
    panic!("\n{report}");
}

// ---------------------------------------------------------------------------
// The scanner and the parser, on strings
// ---------------------------------------------------------------------------

#[test]
fn comment_lines_of_every_kind_are_exempt() {
    let src = "// blender\n    /// Blender docs\n//! FreeCAD module doc\n/* blender */\n/*\n  freecad\n*/\n/** Blender */ fn f() {}\n";
    assert_eq!(offending_lines(src), Vec::<usize>::new());
}

#[test]
fn code_strings_and_identifiers_fail_whatever_their_case() {
    let src = "let a = \"blender\";\nconst BLENDER_CATALOG: u8 = 1;\nuse crate::freecad::x;\nlet b = \"FreeCAD 0.20\";\nlet ok = 1;\n";
    assert_eq!(offending_lines(src), vec![1, 2, 3, 4]);
}

#[test]
fn a_trailing_comment_is_stripped_but_a_slash_pair_in_a_string_is_text() {
    let src = concat!(
        "let x = 1; // blender\n",                 // 1: comment only
        "let url = \"https://blender.org\";\n",    // 2: the name is in the string
        "let s = \"// blender\";\n",               // 3: `//` inside a string is no comment
        "let s = \"a\"; // blender\n",             // 4: after the string closes, a comment
        "let s = \"a \\\" // blender\";\n",        // 5: an escaped quote does not close it
        "let s = \"a\\\\\"; // blender\n",         // 6: an escaped backslash then the close
        "let y = 2; /* blender */ let z = 3;\n",   // 7: inline block comment
        "let w = 4; /* a */ blender();\n",         // 8: code after an inline block comment
    );
    assert_eq!(offending_lines(src), vec![2, 3, 5, 8]);
}

#[test]
fn raw_strings_are_tracked_with_their_hashes() {
    let src = concat!(
        "let a = r\"C:\\blender\"; // x\n",                 // 1: raw string holds the name
        "let b = r#\"say \"hi\" // blender\"#;\n",           // 2: `\"` and `//` inside r#\"..\"#
        "let c = r#\"a\"#; // blender\n",                   // 3: comment after the raw string
        "let d = br\"x\"; // freecad\n",                    // 4: byte raw string, then comment
        "let r#type = 1; // blender\n",                     // 5: raw identifier, not a string
        "for r in [1] {} // blender\n",                     // 6: `r` as a name
        "let e = r##\"a\"# still \"# blender\"##;\n",       // 7: `\"#` does not close r##
    );
    assert_eq!(offending_lines(src), vec![1, 2, 7]);
}

#[test]
fn char_literals_and_lifetimes_open_no_string() {
    let src = concat!(
        "let q = '\"'; // blender\n",                              // 1
        "let e = '\\''; let f = '\\\\'; // blender\n",             // 2
        "fn f<'a>(x: &'a str) -> &'a str { x } // blender\n",      // 3
        "let u = '\\u{1F600}'; let b = b'\"'; // freecad\n",        // 4
        "'outer: loop { break 'outer; } // blender\n",             // 5
        "let s = '\"'; let t = \"blender\";\n",                    // 6: real string after
    );
    assert_eq!(offending_lines(src), vec![6]);
}

#[test]
fn lines_inside_a_multi_line_string_are_code_and_nested_block_comments_close_late() {
    let src = concat!(
        "let s = \"first\n",            // 1
        "  blender inside\n",           // 2: still in the string
        "  // not a comment\"; \n",     // 3: the `//` is string text
        "let t = r#\"\n",               // 4
        "FreeCAD\n",                    // 5: raw string body
        "\"#;\n",                       // 6
        "/* outer /* inner */\n",       // 7
        "  blender still commented */\n", // 8: the outer comment closes here
        "blender_after();\n",           // 9
        "let u = \"line \\\n",          // 10: an escaped line end continues the string
        "blender\";\n",                 // 11
    );
    assert_eq!(offending_lines(src), vec![2, 5, 9, 11]);
}

#[test]
fn every_offender_is_reported_not_only_the_first() {
    let src = "a(\"blender\");\nb();\nc(\"freecad\");\nd(\"Blender\");\n";
    assert_eq!(offending_lines(src), vec![1, 3, 4]);
}

#[test]
fn the_unit_folders_are_read_from_the_registration_list() {
    assert_eq!(unit_folders("pub const UNIT_FOLDERS: &[&str] = &[\"blender\"];\n").unwrap(), ["blender"]);
    let multi = "//! The app units.\n// pub const UNIT_FOLDERS: &[&str] = &[\"old\"];\npub const UNIT_FOLDERS: &[&str] = &[\n    \"blender\", // the first unit\n    /* later */ \"freecad\",\n];\npub fn other() {}\n";
    assert_eq!(unit_folders(multi).unwrap(), ["blender", "freecad"]);
    assert_eq!(unit_folders("pub const UNIT_FOLDERS: &[&str] = &[];").unwrap(), Vec::<String>::new());
    assert_eq!(unit_folders("const UNIT_FOLDERS:&[&str]=&[\"a\",\"b\"];").unwrap(), ["a", "b"]);
}

#[test]
fn a_registration_list_that_could_widen_the_exemption_is_refused() {
    let refused = |src: &str, needle: &str| {
        let e = unit_folders(src).expect_err(src);
        assert!(e.contains(needle), "{src}: {e}");
    };
    refused("pub fn nothing() {}", "no `const UNIT_FOLDERS`");
    refused("// pub const UNIT_FOLDERS: &[&str] = &[\"blender\"];", "no `const UNIT_FOLDERS`");
    refused("pub const UNIT_FOLDERS: &[&str] = &[\"a\"];\npub const UNIT_FOLDERS: &[&str] = &[\"b\"];", "2 times");
    for bad in ["\"\"", "\".\"", "\"..\"", "\"blender/x\"", "\"a\\\\b\"", "\".hidden\""] {
        let src = format!("pub const UNIT_FOLDERS: &[&str] = &[{bad}];");
        assert!(unit_folders(&src).is_err(), "{src}");
    }
    refused("pub const UNIT_FOLDERS: &[&str] = &[BLENDER];", "opening a folder name");
    refused("pub const UNIT_FOLDERS: &[&str] = &[\"a\" \"b\"];", "expected `,` or `]`");
    refused("pub const UNIT_FOLDERS: &[&str] = &[\"a\", \"a\"];", "listed twice");
    refused("pub const UNIT_FOLDERS: &[&str] = FOLDERS;", "before the folder list");
    refused("pub const UNIT_FOLDERS: &[&str] = &[\"a\"]", "ending the const");
    // A mention that is not the definition does not count as one.
    assert_eq!(unit_folders("pub const UNIT_FOLDERS: &[&str] = &[\"a\"];\nfn f() { let _ = UNIT_FOLDERS; }").unwrap(), ["a"]);
}
