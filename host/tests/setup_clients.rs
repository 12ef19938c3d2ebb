//! `capstan setup CLIENT`, run as the real binary against a temporary home for each of
//! the four clients: a file holding other servers (kept, in order), a missing file
//! (created), a malformed file (refused, byte-identical), a second run (nothing changed,
//! no new backup) and `--dry-run` (byte-identical, shows the merge). The real home is
//! never touched: HOME / XDG_CONFIG_HOME / APPDATA / USERPROFILE point into the temp dir.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CLIENTS: [&str; 4] = ["claude-desktop", "cursor", "vscode", "claude-code"];

fn exe() -> String {
    Path::new(env!("CARGO_BIN_EXE_capstan")).canonicalize().unwrap().to_string_lossy().into_owned()
}

/// The documented file for `client` under the fake home `home`.
fn config_path(client: &str, home: &Path) -> PathBuf {
    let app_data = if cfg!(windows) {
        home.join("AppData")
    } else if cfg!(target_os = "macos") {
        home.join("Library").join("Application Support")
    } else {
        home.join("xdg")
    };
    match client {
        "claude-desktop" => app_data.join("Claude").join("claude_desktop_config.json"),
        "cursor" => home.join(".cursor").join("mcp.json"),
        "vscode" => app_data.join("Code").join("User").join("mcp.json"),
        "claude-code" => home.join(".claude.json"),
        _ => unreachable!(),
    }
}

fn key(client: &str) -> &'static str {
    if client == "vscode" { "servers" } else { "mcpServers" }
}

fn wanted(client: &str, home: Option<&str>) -> Value {
    let mut e = json!({ "command": exe(), "args": ["serve"] });
    if let Some(h) = home {
        e["env"] = json!({ "CAPSTAN_HOME": h });
    }
    if client == "vscode" {
        e["type"] = json!("stdio");
    }
    e
}

fn setup(home: &Path, args: &[&str], capstan_home: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_capstan"));
    cmd.arg("setup").args(args);
    for var in ["CLAUDE_CONFIG_DIR", "CAPSTAN_HOME", "XDG_CONFIG_HOME", "APPDATA", "USERPROFILE"] {
        cmd.env_remove(var);
    }
    cmd.env("HOME", home).env("USERPROFILE", home).env("APPDATA", home.join("AppData")).env("XDG_CONFIG_HOME", home.join("xdg"));
    if let Some(h) = capstan_home {
        cmd.env("CAPSTAN_HOME", h);
    }
    cmd.output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Backups beside `path`.
fn backups(path: &Path) -> Vec<PathBuf> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let Ok(dir) = std::fs::read_dir(path.parent().unwrap()) else { return vec![] };
    dir.map(|e| e.unwrap().path()).filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&format!("{name}.capstan-backup-"))).collect()
}

/// Parse a config, dropping whole-line `//` comments (VS Code's JSONC as these tests write it).
fn parse(text: &str) -> Value {
    let plain: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
    serde_json::from_str(&plain.join("\n")).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A config with two other servers, other keys, and (VS Code) a comment.
fn existing(client: &str) -> String {
    let comment = if client == "vscode" { "  // my servers, keep this comment\n" } else { "" };
    format!(
        "{{\n  \"zTheme\": \"dark\",\n{comment}  \"{k}\": {{\n    \"zeta\": {{\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"zeta\"]\n    }},\n    \"alpha\": {{\n      \"command\": \"uvx\",\n      \"args\": [\"alpha\"]\n    }}\n  }},\n  \"aLast\": [1, 2, 3]\n}}\n",
        k = key(client)
    )
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn existing_file_keeps_other_servers_in_order_and_second_run_changes_nothing() {
    for client in CLIENTS {
        let home = tempfile::tempdir().unwrap();
        let path = config_path(client, home.path());
        let before = existing(client);
        write(&path, &before);
        let out = setup(home.path(), &[client], None);
        assert!(out.status.success(), "{client}: {out:?}");
        let text = std::fs::read_to_string(&path).unwrap();
        // Every original line is still there, in the same order; the entry comes last.
        let mut at = 0;
        for line in before.lines().filter(|l| !l.trim().starts_with('}')) {
            at += text[at..].find(line).unwrap_or_else(|| panic!("{client}: lost {line:?}:\n{text}")) + line.len();
        }
        let (zeta, alpha, ours) = (text.find("\"zeta\"").unwrap(), text.find("\"alpha\"").unwrap(), text.find("\"capstan\"").unwrap());
        assert!(zeta < alpha && alpha < ours, "{client}: order:\n{text}");
        let doc = parse(&text);
        let old = parse(&before);
        assert_eq!(doc[key(client)]["capstan"], wanted(client, None), "{client}");
        assert_eq!((&doc["zTheme"], &doc["aLast"]), (&old["zTheme"], &old["aLast"]), "{client}");
        assert_eq!((&doc[key(client)]["zeta"], &doc[key(client)]["alpha"]), (&old[key(client)]["zeta"], &old[key(client)]["alpha"]));
        let saved = backups(&path);
        assert_eq!(saved.len(), 1, "{client}: {saved:?}");
        assert_eq!(std::fs::read_to_string(&saved[0]).unwrap(), before, "{client}: the backup holds the old file");
        assert!(stdout(&out).contains(&saved[0].display().to_string()), "{client}: names the backup");

        let again = setup(home.path(), &[client], None);
        assert!(again.status.success(), "{client}: {again:?}");
        assert!(stdout(&again).contains("nothing changed"), "{client}: {}", stdout(&again));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{client}: second run rewrote the file");
        assert_eq!(backups(&path).len(), 1, "{client}: second run made a backup");
    }
}

#[test]
fn missing_file_and_folder_are_created() {
    for client in CLIENTS {
        let home = tempfile::tempdir().unwrap();
        let path = config_path(client, home.path());
        let out = setup(home.path(), &[client], Some("/data/capstan"));
        assert!(out.status.success(), "{client}: {out:?}");
        let doc = parse(&std::fs::read_to_string(&path).unwrap());
        assert_eq!(doc, json!({ key(client): { "capstan": wanted(client, Some("/data/capstan")) } }), "{client}");
        assert!(backups(&path).is_empty(), "{client}: nothing to back up");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600, "{client}");
        }
    }
}

#[test]
fn malformed_file_is_refused_byte_identical() {
    for client in CLIENTS {
        let home = tempfile::tempdir().unwrap();
        let path = config_path(client, home.path());
        let bad = format!("{{\n  \"{}\": {{\n    \"other\": {{\"command\": \"x\"}}\n    \"capstan\": 1\n", key(client));
        write(&path, &bad);
        let out = setup(home.path(), &[client], None);
        assert!(!out.status.success(), "{client}: accepted a malformed file");
        let err = String::from_utf8_lossy(&out.stderr);
        // The missing comma is after line 3 (the parser names the end of line 3 or line 4).
        let at = err.split(&format!("{}:", path.display())).nth(1).unwrap_or_else(|| panic!("{client}: {err}"));
        assert!((at.starts_with("3:") || at.starts_with("4:")) && err.contains("nothing was changed"), "{client}: {err}");
        assert_eq!(std::fs::read(&path).unwrap(), bad.as_bytes(), "{client}");
        assert!(backups(&path).is_empty(), "{client}");
    }
    // Comments: kept in VS Code's JSONC, refused (saying why) in the strict-JSON clients.
    let home = tempfile::tempdir().unwrap();
    let path = config_path("cursor", home.path());
    write(&path, "// mine\n{}\n");
    let out = setup(home.path(), &["cursor"], None);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("comments are not allowed"), "{out:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "// mine\n{}\n");
}

#[test]
fn dry_run_shows_the_merge_and_writes_nothing() {
    for client in CLIENTS {
        let home = tempfile::tempdir().unwrap();
        let path = config_path(client, home.path());
        let before = existing(client).replace("\"alpha\": {", "\"capstan\": {\"command\": \"old\"},\n    \"alpha\": {");
        write(&path, &before);
        let out = setup(home.path(), &[client, "--dry-run"], None);
        assert!(out.status.success(), "{client}: {out:?}");
        let said = stdout(&out);
        assert!(said.contains(&path.display().to_string()), "{client}: {said}");
        assert!(said.contains("before: {\"command\": \"old\"}") && said.contains(&format!("\"command\": {}", json!(exe()))), "{client}: {said}");
        assert!(said.contains("would replace") && said.contains("not written"), "{client}: {said}");
        assert_eq!(std::fs::read(&path).unwrap(), before.as_bytes(), "{client}: dry run changed the file");
        assert!(backups(&path).is_empty(), "{client}");
        // A missing file stays missing.
        let empty = tempfile::tempdir().unwrap();
        assert!(setup(empty.path(), &[client, "--dry-run"], None).status.success());
        assert!(!config_path(client, empty.path()).exists(), "{client}");
    }
}

#[test]
fn config_option_replaces_a_differing_entry_and_refuses_links() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("custom.json");
    write(&path, "{\"mcpServers\": {\"capstan\": {\"command\": \"old\", \"args\": []}, \"b\": {\"command\": \"b\"}}}");
    let out = setup(dir.path(), &["claude-code", "--config", path.to_str().unwrap(), "--expert"], None);
    assert!(out.status.success() && stdout(&out).contains("replaced"), "{out:?}");
    let doc = parse(&std::fs::read_to_string(&path).unwrap());
    assert_eq!(doc["mcpServers"]["capstan"]["args"], json!(["serve", "--expert"]));
    assert_eq!(doc["mcpServers"]["b"], json!({"command": "b"}));
    #[cfg(unix)]
    {
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let target = std::fs::read(&path).unwrap();
        let out = setup(dir.path(), &["cursor", "--config", link.to_str().unwrap()], None);
        assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("not a regular file"), "{out:?}");
        assert_eq!(std::fs::read(&path).unwrap(), target);
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        // A hard link is refused the same way: both names keep the same file.
        let hard = dir.path().join("hard.json");
        std::fs::hard_link(&path, &hard).unwrap();
        let out = setup(dir.path(), &["cursor", "--config", hard.to_str().unwrap()], None);
        assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("hard links"), "{out:?}");
        assert_eq!(std::fs::read(&hard).unwrap(), target);
        assert_eq!(std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&hard).unwrap()), std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&path).unwrap()));
    }
}
