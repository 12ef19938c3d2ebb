//! The pack store through the `capstan` binary: the install gate refuses before
//! touching anything (the store's bytes are compared), installs swap atomically, a
//! killed install leaves the previous version whole, and remove/enable/disable work.
#![cfg(target_os = "linux")]

mod support;

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use support::built_pack;

fn capstan(home: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (out.status.code().unwrap_or(-1), serde_json::from_str(&stdout).unwrap_or(Value::Null), format!("{stdout}{}", String::from_utf8_lossy(&out.stderr)))
}

/// A fake app executable printing `Blender <version>`, or a path where none is.
fn fake_app(root: &Path, version: Option<&str>) -> PathBuf {
    let dir = root.join(format!("app-{}", version.unwrap_or("none")));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("blender");
    if let Some(v) = version {
        std::fs::write(&exe, format!("#!/bin/sh\necho 'Blender {v}'\n")).unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    exe
}

/// hello-pack at `version`, requiring Blender >= 4.2 at `app`, for `platforms`.
fn pack(root: &Path, version: &str, app: &Path, platforms: &[&str]) -> PathBuf {
    let built = built_pack("sdk/examples/hello-pack");
    let dir = root.join(format!("src-{version}-{}", app.parent().unwrap().file_name().unwrap().to_string_lossy()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut manifest: Value = serde_json::from_str(&std::fs::read_to_string(built.join("pack.json")).unwrap()).unwrap();
    let component = manifest["component"].as_str().unwrap().to_string();
    std::fs::copy(built.join(&component), dir.join(&component)).unwrap();
    manifest["version"] = json!(version);
    manifest["platforms"] = json!(platforms);
    manifest["servers"]["blender"]["app"] = json!({ "linux": { "presence": "executable", "location": app, "version": { "kind": "command", "args": ["--version"] } } });
    manifest["servers"]["blender"]["requires"] = json!({ "app": true, "min_version": "4.2" });
    std::fs::write(dir.join("pack.json"), manifest.to_string()).unwrap();
    dir
}

/// Every file under the store with its bytes (the lock file aside).
fn snapshot(home: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![home.join("packs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n != ".lock") {
                out.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

fn installed_version(home: &Path) -> Option<String> {
    let (_, doc, _) = capstan(home, &["packs", "list", "--json"]);
    doc["packs"].as_array()?.iter().find(|p| p["name"] == "hello-pack").map(|p| p["version"].as_str().unwrap().to_string())
}

#[test]
fn the_gate_refuses_before_touching_the_store() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let good = fake_app(tmp.path(), Some("5.0.1"));
    let (code, _, text) = capstan(&home, &["packs", "install", pack(tmp.path(), "0.1.0", &good, &["linux"]).to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    let before = snapshot(&home);

    let old = fake_app(tmp.path(), Some("3.4.1"));
    let missing = fake_app(tmp.path(), None);
    for (source, refused) in [
        (pack(tmp.path(), "0.2.0", &missing, &["linux"]), "missing_app"),
        (pack(tmp.path(), "0.2.0", &old, &["linux"]), "version_too_old"),
        (pack(tmp.path(), "0.2.1", &good, &["darwin", "win32"]), "platform_mismatch"),
    ] {
        let (code, doc, text) = capstan(&home, &["packs", "install", source.to_str().unwrap(), "--json"]);
        assert_eq!(code, 1, "{text}");
        assert_eq!(doc["refused"], refused, "{doc}");
        assert_eq!(snapshot(&home), before, "a refused install ({refused}) changed the store");
    }
    // A component that is not the one the manifest declares: refused even with --force.
    let tampered = pack(tmp.path(), "0.3.0", &good, &["linux"]);
    let component = std::fs::read_dir(&tampered).unwrap().flatten().find(|e| e.path().extension().is_some_and(|x| x == "wasm")).unwrap().path();
    let mut bytes = std::fs::read(&component).unwrap();
    bytes.push(0);
    std::fs::write(&component, bytes).unwrap();
    let (code, doc, text) = capstan(&home, &["packs", "install", tampered.to_str().unwrap(), "--force", "--json"]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(doc["refused"], "digest_mismatch", "{doc}");
    assert_eq!(snapshot(&home), before);
    // --force overrides the app checks only.
    let (code, doc, text) = capstan(&home, &["packs", "install", pack(tmp.path(), "0.4.0", &missing, &["linux"]).to_str().unwrap(), "--force", "--json"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(doc["pack"]["replaced"], "0.1.0");
    assert_eq!(installed_version(&home).as_deref(), Some("0.4.0"));
}

#[test]
fn a_killed_install_leaves_the_previous_version_working() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let good = fake_app(tmp.path(), Some("5.0.1"));
    let (code, _, text) = capstan(&home, &["packs", "install", pack(tmp.path(), "0.1.0", &good, &["linux"]).to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");

    for (point, after) in [("staged", "0.1.0"), ("swapped", "0.2.0")] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_capstan"))
            .env("CAPSTAN_HOME", &home)
            .env("CAPSTAN_STORE_PAUSE", point)
            .args(["packs", "install", pack(tmp.path(), "0.2.0", &good, &["linux"]).to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        while !line.contains("paused at") {
            line.clear();
            assert!(stderr.read_line(&mut line).unwrap() > 0, "the install ended before {point}");
        }
        child.kill().unwrap();
        child.wait().unwrap();
        // Killed: the pack at its path is whole (one version or the other, never half),
        // and it loads and answers.
        assert_eq!(installed_version(&home).as_deref(), Some(after), "killed at {point}");
        let (code, doc, text) = capstan(&home, &["packs", "list", "--json"]);
        assert_eq!(code, 0, "{text}");
        assert_eq!(doc["refused"], json!([]), "{doc}");
        if point == "staged" {
            // The next operation clears what the killed one left; nothing half-installed stays.
            let (code, _, text) = capstan(&home, &["packs", "install", pack(tmp.path(), "0.1.0", &good, &["linux"]).to_str().unwrap()]);
            assert_eq!(code, 0, "{text}");
            let leftovers: Vec<_> =
                std::fs::read_dir(home.join("packs")).unwrap().flatten().filter(|e| e.file_name().to_string_lossy().starts_with(".staging")).collect();
            assert!(leftovers.is_empty(), "{leftovers:?}");
        }
    }
}

#[test]
fn remove_enable_and_disable() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let good = fake_app(tmp.path(), Some("5.0.1"));
    let (code, _, text) = capstan(&home, &["packs", "install", pack(tmp.path(), "0.1.0", &good, &["linux"]).to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(capstan(&home, &["packs", "disable", "hello-pack"]).0, 0);
    assert_eq!(installed_version(&home), None, "a disabled pack is not loaded");
    let (_, doc, _) = capstan(&home, &["packs", "list", "--json"]);
    assert_eq!(doc["store"][0]["enabled"], false, "{doc}");
    assert_eq!(capstan(&home, &["packs", "enable", "hello-pack"]).0, 0);
    assert_eq!(installed_version(&home).as_deref(), Some("0.1.0"));
    assert_eq!(capstan(&home, &["packs", "remove", "hello-pack"]).0, 0);
    assert_eq!(installed_version(&home), None);
    assert!(!home.join("packs/hello-pack").exists());
    let (code, _, text) = capstan(&home, &["packs", "remove", "hello-pack"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("no installed pack named"), "{text}");
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn a_catalog_name_installs_its_pinned_commit_never_the_branch_tip() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let good = fake_app(tmp.path(), Some("5.0.1"));
    // A repository whose first commit holds hello-pack 0.1.0 under packs/hello, and
    // whose branch tip holds 0.2.0.
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(repo.join("packs")).unwrap();
    git(&repo, &["init", "--quiet"]);
    let copy = |version: &str| {
        let src = pack(tmp.path(), version, &good, &["linux"]);
        let _ = std::fs::remove_dir_all(repo.join("packs/hello"));
        std::fs::create_dir_all(repo.join("packs/hello")).unwrap();
        for entry in std::fs::read_dir(&src).unwrap().flatten() {
            std::fs::copy(entry.path(), repo.join("packs/hello").join(entry.file_name())).unwrap();
        }
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "--quiet", "-m", version]);
        git(&repo, &["rev-parse", "HEAD"])
    };
    let pinned = copy("0.1.0");
    copy("0.2.0");
    let component = std::fs::read_dir(repo.join("packs/hello")).unwrap().flatten().find(|e| e.path().extension().is_some_and(|x| x == "wasm")).unwrap().path();
    let sha = capstan::fsutil::sha256_hex(&std::fs::read(component).unwrap());
    let entry = |sha: &str| json!([{ "name": "hello-pack", "description": "test", "source": repo, "commit": pinned, "sha256": sha, "platforms": ["linux"], "path": "packs/hello" }]);
    let catalog = tmp.path().join("catalog.json");

    // A catalog digest that is not the component's: refused, store untouched.
    std::fs::write(&catalog, entry(&"0".repeat(64)).to_string()).unwrap();
    let (code, doc, text) = capstan(&home, &["packs", "install", "hello-pack", "--catalog", catalog.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(doc["refused"], "catalog", "{doc}");
    assert!(doc["message"].as_str().unwrap().contains("sha256"), "{doc}");
    assert!(snapshot(&home).is_empty());

    std::fs::write(&catalog, entry(&sha).to_string()).unwrap();
    let (code, doc, text) = capstan(&home, &["packs", "install", "hello-pack", "--catalog", catalog.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(doc["pack"]["version"], "0.1.0", "the pinned commit, not the tip: {doc}");
    assert_eq!(installed_version(&home).as_deref(), Some("0.1.0"));

    let (code, _, text) = capstan(&home, &["packs", "install", "no-such-pack", "--catalog", catalog.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(text.contains("no catalog entry named"), "{text}");
}

/// git runs with none of the user's configuration: a global `~/.gitconfig` with filter
/// drivers (an LFS-style smudge that runs a command) and `GIT_CONFIG_*` variables that
/// rewrite the source URL (`insteadOf`) are both ignored, and the pinned commit of the
/// named repository installs.
#[test]
fn a_catalog_fetch_ignores_the_users_git_configuration() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let good = fake_app(tmp.path(), Some("5.0.1"));
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "--quiet"]);
    let src = pack(tmp.path(), "0.1.0", &good, &["linux"]);
    for entry in std::fs::read_dir(&src).unwrap().flatten() {
        std::fs::copy(entry.path(), repo.join(entry.file_name())).unwrap();
    }
    std::fs::write(repo.join(".gitattributes"), "*.wasm filter=lfs\npack.json filter=evil\n").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "--quiet", "-m", "pack"]);
    let pinned = git(&repo, &["rev-parse", "HEAD"]);
    let component = std::fs::read_dir(&repo).unwrap().flatten().find(|e| e.path().extension().is_some_and(|x| x == "wasm")).unwrap().path();
    let sha = capstan::fsutil::sha256_hex(&std::fs::read(component).unwrap());
    let catalog = tmp.path().join("catalog.json");
    let entry = json!([{ "name": "hello-pack", "source": repo, "commit": pinned, "sha256": sha, "platforms": ["linux"] }]);
    std::fs::write(&catalog, entry.to_string()).unwrap();

    // A repository the rewrite would fetch instead: it has no such commit.
    let other = tmp.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    git(&other, &["init", "--quiet"]);
    git(&other, &["commit", "--quiet", "--allow-empty", "-m", "other"]);
    let user_home = tmp.path().join("user");
    std::fs::create_dir_all(&user_home).unwrap();
    let marker = tmp.path().join("smudged");
    std::fs::write(
        user_home.join(".gitconfig"),
        format!(
            "[filter \"lfs\"]\n\tsmudge = sh -c 'touch {m}; cat'\n[filter \"evil\"]\n\tsmudge = sh -c 'touch {m}; cat'\n[core]\n\thooksPath = {h}\n",
            m = marker.display(),
            h = tmp.path().join("hooks").display()
        ),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_capstan"))
        .env("CAPSTAN_HOME", &home)
        .env("HOME", &user_home)
        .env("GIT_CONFIG_COUNT", "1")
        .env("GIT_CONFIG_KEY_0", format!("url.{}.insteadOf", other.display()))
        .env("GIT_CONFIG_VALUE_0", repo.to_str().unwrap())
        .args(["packs", "install", "hello-pack", "--catalog", catalog.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!marker.exists(), "a filter driver from the user's global git configuration ran");
    assert_eq!(installed_version(&home).as_deref(), Some("0.1.0"));
}

#[test]
fn a_packed_archive_installs_through_the_same_gate() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let good = fake_app(tmp.path(), Some("5.0.1"));
    let archive = tmp.path().join("hello.tar.gz");
    let (code, _, text) = capstan(&home, &["packs", "pack", pack(tmp.path(), "0.1.0", &good, &["linux"]).to_str().unwrap(), "-o", archive.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    let (code, doc, text) = capstan(&home, &["packs", "install", archive.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(doc["pack"]["version"], "0.1.0", "{doc}");
    assert_eq!(installed_version(&home).as_deref(), Some("0.1.0"));
    let before = snapshot(&home);

    // The same gate refuses an archived pack whose app is missing; the store is untouched.
    let missing = fake_app(tmp.path(), None);
    let refused = tmp.path().join("refused.tgz");
    assert_eq!(capstan(&home, &["packs", "pack", pack(tmp.path(), "0.2.0", &missing, &["linux"]).to_str().unwrap(), "-o", refused.to_str().unwrap()]).0, 0);
    let (code, doc, text) = capstan(&home, &["packs", "install", refused.to_str().unwrap(), "--json"]);
    assert_eq!((code, doc["refused"].as_str()), (1, Some("missing_app")), "{text}");
    assert_eq!(snapshot(&home), before);

    // Something that is not an archive is refused as such, not half-read.
    let junk = tmp.path().join("junk.tar.gz");
    std::fs::write(&junk, b"\x1f\x8b\x08 definitely not gzip").unwrap();
    let (code, doc, text) = capstan(&home, &["packs", "install", junk.to_str().unwrap(), "--json"]);
    assert_eq!((code, doc["refused"].as_str()), (1, Some("archive")), "{text}");
    assert_eq!(snapshot(&home), before);
}

#[test]
fn the_official_packs_are_catalog_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let (code, doc, text) = capstan(&home, &["packs", "catalog", "--json"]);
    assert_eq!(code, 0, "{text}");
    let official = doc["official"].as_array().unwrap();
    let core = official.iter().find(|e| e["name"] == "blender-core").unwrap_or_else(|| panic!("{doc}"));
    let (_, listed, _) = capstan(&home, &["packs", "list", "--json"]);
    let loaded = listed["packs"].as_array().unwrap().iter().find(|p| p["name"] == "blender-core").unwrap();
    assert_eq!(core["sha256"], loaded["sha256"], "the pin is the embedded component's digest");
    assert_eq!(core["version"], loaded["version"]);

    // Installing an official pack checks its digest and app, and writes nothing.
    let provisioned = home.join("blender/bpy-4.5.15/bin");
    std::fs::create_dir_all(&provisioned).unwrap();
    std::fs::write(provisioned.join("blender"), "#!/bin/sh\necho 'Blender 4.5.15'\n").unwrap();
    std::fs::set_permissions(provisioned.join("blender"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, doc, text) = capstan(&home, &["packs", "install", "blender-core", "--json"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(doc["pack"]["path"], Value::Null, "{doc}");
    assert!(doc["pack"]["capabilities"].as_array().unwrap().iter().any(|c| c == "scene.info"), "{doc}");
    assert!(snapshot(&home).is_empty(), "nothing is written for an official pack");

    // A user catalog may not shadow an official name.
    let catalog = tmp.path().join("catalog.json");
    let pinned = json!([{ "name": "blender-core", "source": "/nowhere", "commit": "0".repeat(40), "sha256": "0".repeat(64), "platforms": ["linux"] }]);
    std::fs::write(&catalog, pinned.to_string()).unwrap();
    let (code, _, text) = capstan(&home, &["packs", "catalog", "--catalog", catalog.to_str().unwrap()]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("official pack"), "{text}");
}
