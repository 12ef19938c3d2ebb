//! What building a Rust pack would run natively, before any sandbox exists: the
//! refusal `capstan packs build` makes unless `--trust-build-code` is given.
//!
//! Security reasoning: a pack's component runs in the sandbox, but compiling it does
//! not. cargo runs a crate's build script (`build.rs`, or `package.build`) as the user,
//! and rustc loads every procedural macro into itself and runs it, with the user's
//! rights, files and network; cargo's and rustup's configuration can also name programs
//! to run (`rustc-wrapper`, a linker, a runner, a toolchain by path). Building someone
//! else's pack is therefore running their code. Python and JavaScript packs compile
//! inside wasm, so this is about Rust alone.
//!
//! Before cargo runs, capstan lists that code and refuses to build unless the user
//! says `--trust-build-code`:
//!
//! - **from the dependency graph** (`cargo metadata --format-version 1`, which resolves
//!   but neither compiles nor runs anything): every package the pack's library needs
//!   (normal and build dependencies, transitively; dev-dependencies are never built by
//!   `packs build`) that has a `custom-build` target (a build script) or is a
//!   `proc-macro`, the pack itself included;
//! - **except the SDK's own**: the dependency closure of `capstan-sdk` (and of
//!   `capstan-blender`, the Blender client in the SDK's `blender/`) as it resolves
//!   for this pack, computed from the same graph, not a hand-written list (the SDK
//!   needs `wit-bindgen`'s and its own macros, `serde`'s build script and derive, ...).
//!   Only a real SDK anchors that closure, and only its real crates are in it: a
//!   `capstan-sdk` from crates.io, or the local one this capstan was installed with
//!   (`CAPSTAN_SDK_PATH`, the checkout beside the binary, the checkout it was built from;
//!   never a folder found from where the user stands, which a pack could supply); and a
//!   package of the closure counts only if it comes from crates.io or from inside that
//!   local SDK. A `[patch]`, `[replace]`, git or path source for any of them puts that
//!   package outside the allowed set, so a pack cannot pass its own macro off as the
//!   SDK's;
//! - **from the folder**: a `.cargo/config` or `.cargo/config.toml` in the pack folder or
//!   above it (cargo runs in the pack folder and reads them; `$CARGO_HOME`'s own is the
//!   user's and is not counted), and a `rust-toolchain` file whose contents are more
//!   than a channel, targets, components and a profile (a `path` makes rustup run the
//!   programs it names). These are checked before `cargo metadata` runs, since cargo
//!   reads its configuration (and may run `rustc` through a wrapper) even to resolve.
//!
//! What this does not do: confine the compiler itself. Trusted build code runs with the
//! user's rights (the README says so).

use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

/// One piece of code the build would run natively.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BuildCode {
    /// The package (`name version`), or the file, that holds it.
    pub what: String,
    /// Where it comes from: `this pack`, `crates.io`, `path <folder>`, `git ...`.
    pub source: String,
    pub kind: BuildCodeKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BuildCodeKind {
    /// A build script: cargo runs it.
    BuildScript,
    /// A procedural macro: rustc runs it.
    ProcMacro,
    /// A cargo configuration file: it can name programs cargo runs.
    CargoConfig,
    /// A toolchain file naming more than a channel: rustup may run what it names.
    Toolchain,
}

impl std::fmt::Display for BuildCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why = match self.kind {
            BuildCodeKind::BuildScript => "has a build script (build.rs), which cargo runs",
            BuildCodeKind::ProcMacro => "is a procedural macro, which the compiler runs",
            BuildCodeKind::CargoConfig => "is cargo configuration, which can name programs for cargo to run (rustc-wrapper, linker, runner) or replace where crates come from",
            BuildCodeKind::Toolchain => "is a toolchain file that names more than a channel (a toolchain by path runs its programs)",
        };
        write!(f, "{} ({}) {why}", self.what, self.source)
    }
}

/// The crates.io index as `cargo metadata` names it (git and sparse protocol).
fn from_crates_io(source: &str) -> bool {
    source == "registry+https://github.com/rust-lang/crates.io-index" || source == "sparse+https://index.crates.io/"
}

/// `$CARGO_HOME` (the user's own cargo configuration lives there).
fn cargo_home() -> Option<PathBuf> {
    std::env::var_os("CARGO_HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .map(|h| std::fs::canonicalize(&h).unwrap_or(h))
}

/// Configuration files in `dir` (the pack folder, where cargo runs) and above it that
/// make cargo or rustup run programs (see the module doc).
pub fn folder_findings(dir: &Path) -> Vec<BuildCode> {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let home = cargo_home();
    let mut found = Vec::new();
    for folder in dir.ancestors() {
        let config_dir = folder.join(".cargo");
        if home.as_deref() == Some(config_dir.as_path()) {
            continue;
        }
        for name in ["config.toml", "config"] {
            let path = config_dir.join(name);
            if path.is_file() {
                found.push(BuildCode { what: path.display().to_string(), source: source_of_file(folder, &dir), kind: BuildCodeKind::CargoConfig });
            }
        }
    }
    // rustup uses the nearest toolchain file, from the folder cargo runs in upwards.
    let nearest = dir.ancestors().flat_map(|f| ["rust-toolchain.toml", "rust-toolchain"].map(|n| f.join(n))).find(|p| p.is_file());
    if let Some(path) = nearest {
        let text = std::fs::read(&path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
        if !plain_toolchain(&text) {
            let folder = path.parent().unwrap_or(&dir);
            found.push(BuildCode { what: path.display().to_string(), source: source_of_file(folder, &dir), kind: BuildCodeKind::Toolchain });
        }
    }
    found
}

fn source_of_file(folder: &Path, pack: &Path) -> String {
    if folder == pack { "this pack".into() } else { "a folder above the pack".into() }
}

/// A toolchain file that only names a channel (the legacy one-line form), or a
/// `[toolchain]` table of `channel`, `targets`, `components` and `profile`.
fn plain_toolchain(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()).collect();
    let channel_name = |l: &str| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    if let [only] = lines.as_slice()
        && channel_name(only)
    {
        return true;
    }
    let mut in_array = false;
    for line in lines {
        if in_array {
            // A continued array of plain strings.
            in_array = !line.contains(']');
            if !line.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '"' | '\'' | ',' | '-' | '_' | '.' | ']' | ' ')) {
                return false;
            }
            continue;
        }
        if line == "[toolchain]" {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { return false };
        if !matches!(key.trim(), "channel" | "targets" | "components" | "profile") {
            return false;
        }
        let value = value.trim();
        if !value.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '"' | '\'' | ',' | '-' | '_' | '.' | '[' | ']' | ' ')) {
            return false;
        }
        in_array = value.starts_with('[') && !value.contains(']');
    }
    true
}

/// The crates of the SDK whose dependency closures are the SDK's own: the generic SDK
/// and the app units' client crates that live in it (published beside it).
fn sdk_crates() -> Vec<&'static str> {
    std::iter::once("capstan-sdk").chain(crate::app_units::all().iter().filter_map(|u| u.rust_client()).map(|c| c.crate_name)).collect()
}

/// The local SDK this capstan trusts (see the module doc): never found from the working
/// folder, which a pack could supply.
pub fn trusted_local_sdk() -> Option<PathBuf> {
    super::installed_sdk()
}

/// Every package built for the pack that runs code natively, outside the SDK's own
/// closure, from `cargo metadata --format-version 1` (with dependencies). `trusted_sdk`
/// is the local SDK folder that may anchor the closure (besides crates.io's).
pub fn graph_findings(doc: &Value, trusted_sdk: Option<&Path>) -> Result<Vec<BuildCode>, String> {
    let packages: HashMap<&str, &Value> =
        doc["packages"].as_array().ok_or("no packages")?.iter().filter_map(|p| Some((p["id"].as_str()?, p))).collect();
    let root = doc["resolve"]["root"].as_str().ok_or("the manifest is not a package (a virtual workspace?)")?;
    let mut edges: HashMap<&str, Vec<&str>> = HashMap::new();
    for node in doc["resolve"]["nodes"].as_array().ok_or("no resolve graph")? {
        let Some(id) = node["id"].as_str() else { continue };
        // dev-dependencies are never built by `cargo rustc --lib`.
        let built = node["deps"].as_array().into_iter().flatten().filter(|d| {
            d["dep_kinds"].as_array().is_none_or(|kinds| kinds.is_empty() || kinds.iter().any(|k| k["kind"].as_str() != Some("dev")))
        });
        edges.insert(id, built.filter_map(|d| d["pkg"].as_str()).collect());
    }
    let closure = |starts: Vec<&str>| -> HashSet<String> {
        let mut seen: HashSet<String> = HashSet::new();
        let mut queue: VecDeque<&str> = starts.into();
        while let Some(id) = queue.pop_front() {
            if seen.insert(id.to_string()) {
                queue.extend(edges.get(id).into_iter().flatten().copied());
            }
        }
        seen
    };
    let trusted = trusted_sdk.map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()));
    let genuine = |package: &Value| -> bool {
        match package["source"].as_str() {
            Some(source) => from_crates_io(source),
            None => match (&trusted, package["manifest_path"].as_str()) {
                (Some(sdk), Some(manifest)) => {
                    let manifest = Path::new(manifest);
                    std::fs::canonicalize(manifest).unwrap_or_else(|_| manifest.to_path_buf()).starts_with(sdk)
                }
                _ => false,
            },
        }
    };
    let sdk_crates = sdk_crates();
    let anchors: Vec<&str> =
        packages.iter().filter(|(_, p)| sdk_crates.contains(&p["name"].as_str().unwrap_or("")) && genuine(p)).map(|(id, _)| *id).collect();
    let allowed: HashSet<String> = closure(anchors).into_iter().filter(|id| packages.get(id.as_str()).is_some_and(|p| genuine(p))).collect();
    let built = closure(vec![root]);

    let mut found = BTreeSet::new();
    for id in &built {
        if allowed.contains(id) {
            continue;
        }
        let Some(package) = packages.get(id.as_str()) else { continue };
        let kinds: Vec<&str> =
            package["targets"].as_array().into_iter().flatten().flat_map(|t| t["kind"].as_array().into_iter().flatten().filter_map(Value::as_str)).collect();
        let what = format!("{} {}", package["name"].as_str().unwrap_or("?"), package["version"].as_str().unwrap_or("?"));
        let source = match package["source"].as_str() {
            _ if id == root => "this pack".to_string(),
            Some(s) if from_crates_io(s) => "crates.io".to_string(),
            Some(s) => crate::control_chars::escape(s).into_owned(),
            None => format!(
                "path {}",
                package["manifest_path"].as_str().and_then(|m| Path::new(m).parent()).map(|p| p.display().to_string()).unwrap_or_default()
            ),
        };
        let what = crate::control_chars::escape(&what).into_owned();
        if kinds.contains(&"custom-build") {
            found.insert(Finding(BuildCode { what: what.clone(), source: source.clone(), kind: BuildCodeKind::BuildScript }));
        }
        if kinds.contains(&"proc-macro") {
            found.insert(Finding(BuildCode { what, source, kind: BuildCodeKind::ProcMacro }));
        }
    }
    Ok(found.into_iter().map(|f| f.0).collect())
}

/// Ordered for a stable listing (the pack first, then by name).
#[derive(PartialEq, Eq)]
struct Finding(BuildCode);

impl Ord for Finding {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let key = |f: &Finding| (f.0.source != "this pack", f.0.what.clone(), f.0.source.clone(), f.0.kind as u8);
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for Finding {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const IO: &str = "registry+https://github.com/rust-lang/crates.io-index";

    fn package(id: &str, name: &str, source: Option<&str>, manifest: &str, kinds: &[&str]) -> Value {
        json!({ "id": id, "name": name, "version": "1.0.0", "source": source, "manifest_path": manifest,
                "targets": [{ "name": name, "kind": kinds }] })
    }

    fn node(id: &str, deps: &[(&str, Option<&str>)]) -> Value {
        json!({ "id": id, "deps": deps.iter().map(|(pkg, kind)| json!({ "pkg": pkg, "dep_kinds": [{ "kind": kind }] })).collect::<Vec<_>>() })
    }

    /// pack -> sdk (-> sdk-macros proc-macro, serde build script -> serde_derive) ;
    /// pack -> serde ; pack -dev-> tester (proc-macro).
    fn graph(sdk_source: Option<&str>, sdk_dir: &str, pack_kinds: &[&str]) -> Value {
        json!({
            "packages": [
                package("pack", "pack", None, "/w/pack/Cargo.toml", pack_kinds),
                package("sdk", "capstan-sdk", sdk_source, &format!("{sdk_dir}/Cargo.toml"), &["lib"]),
                package("macros", "capstan-sdk-macros", sdk_source, &format!("{sdk_dir}/macros/Cargo.toml"), &["proc-macro"]),
                package("serde", "serde", Some(IO), "/r/serde/Cargo.toml", &["lib", "custom-build"]),
                package("serde_derive", "serde_derive", Some(IO), "/r/serde_derive/Cargo.toml", &["proc-macro"]),
                package("tester", "tester", Some(IO), "/r/tester/Cargo.toml", &["proc-macro"]),
            ],
            "resolve": { "root": "pack", "nodes": [
                node("pack", &[("sdk", None), ("serde", None), ("tester", Some("dev"))]),
                node("sdk", &[("macros", None), ("serde", None)]),
                node("macros", &[]),
                node("serde", &[("serde_derive", None)]),
                node("serde_derive", &[]),
                node("tester", &[]),
            ] },
        })
    }

    #[test]
    fn the_sdk_closure_is_allowed_and_dev_dependencies_are_not_built() {
        let found = graph_findings(&graph(Some(IO), "/r/sdk", &["lib"]), None).unwrap();
        assert_eq!(found, vec![], "crates.io SDK: its macros and serde's build code are the SDK's");
        let tmp = tempfile::tempdir().unwrap();
        let sdk = tmp.path().join("sdk");
        std::fs::create_dir_all(sdk.join("macros")).unwrap();
        let found = graph_findings(&graph(None, sdk.to_str().unwrap(), &["lib"]), Some(&sdk)).unwrap();
        assert_eq!(found, vec![], "the trusted local SDK");
    }

    #[test]
    fn the_packs_own_build_script_and_a_fake_sdk_are_refused_naming_each_crate() {
        let found = graph_findings(&graph(Some(IO), "/r/sdk", &["lib", "custom-build"]), None).unwrap();
        assert_eq!(found, vec![BuildCode { what: "pack 1.0.0".into(), source: "this pack".into(), kind: BuildCodeKind::BuildScript }]);
        // A capstan-sdk by path that is not the trusted one anchors nothing: its macro
        // and everything it pulls in count as the pack's.
        let found = graph_findings(&graph(None, "/w/pack/fake-sdk", &["lib"]), Some(Path::new("/r/real-sdk"))).unwrap();
        let listed: Vec<String> = found.iter().map(|f| f.to_string()).collect();
        assert_eq!(found.len(), 3, "{listed:?}");
        assert!(listed.iter().any(|l| l.starts_with("capstan-sdk-macros 1.0.0 (path /w/pack/fake-sdk/macros) is a procedural macro")), "{listed:?}");
        assert!(listed.iter().any(|l| l.starts_with("serde 1.0.0 (crates.io) has a build script")), "{listed:?}");
        assert!(listed.iter().any(|l| l.starts_with("serde_derive 1.0.0 (crates.io) is a procedural macro")), "{listed:?}");
    }

    #[test]
    fn an_app_clients_closure_is_the_sdks_only_when_it_is_genuine() {
        let client = crate::app_units::scaffold_client().expect("a registered app has a Rust client");
        // pack -> the app client -> a derive macro the generic SDK does not use.
        let with_client = |source: Option<&str>, dir: &str| {
            let mut doc = graph(Some(IO), "/r/sdk", &["lib"]);
            let packages = doc["packages"].as_array_mut().unwrap();
            packages.push(package("client", client.crate_name, source, &format!("{dir}/Cargo.toml"), &["lib"]));
            packages.push(package("derive", "client_derive", Some(IO), "/r/derive/Cargo.toml", &["proc-macro"]));
            let nodes = doc["resolve"]["nodes"].as_array_mut().unwrap();
            nodes[0]["deps"].as_array_mut().unwrap().push(json!({ "pkg": "client", "dep_kinds": [{ "kind": null }] }));
            nodes.push(node("client", &[("sdk", None), ("derive", None)]));
            nodes.push(node("derive", &[]));
            doc
        };
        assert_eq!(graph_findings(&with_client(Some(IO), "/r/client"), None).unwrap(), vec![], "the client from crates.io");
        let tmp = tempfile::tempdir().unwrap();
        let sdk = tmp.path().join("sdk");
        std::fs::create_dir_all(sdk.join(client.folder)).unwrap();
        let local = with_client(None, sdk.join(client.folder).to_str().unwrap());
        assert_eq!(graph_findings(&local, Some(&sdk)).unwrap(), vec![], "the trusted SDK's own client folder");
        let found = graph_findings(&with_client(None, "/w/pack/fake-client"), Some(&sdk)).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].what.as_str(), found[0].kind), ("client_derive 1.0.0", BuildCodeKind::ProcMacro));
    }

    #[test]
    fn a_patched_sdk_dependency_leaves_the_allowed_set() {
        let mut doc = graph(Some(IO), "/r/sdk", &["lib"]);
        // [patch.crates-io] serde_derive = { path = "evil" }
        doc["packages"][4]["source"] = Value::Null;
        doc["packages"][4]["manifest_path"] = json!("/w/pack/evil/Cargo.toml");
        let found = graph_findings(&doc, None).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].what.as_str(), found[0].kind), ("serde_derive 1.0.0", BuildCodeKind::ProcMacro));
        assert_eq!(found[0].source, "path /w/pack/evil");
    }

    #[test]
    fn toolchain_files_naming_only_a_channel_pass() {
        assert!(plain_toolchain("stable\n"));
        assert!(plain_toolchain("# c\n[toolchain]\nchannel = \"stable\"\ntargets = [\"wasm32-wasip2\"]\n"));
        assert!(plain_toolchain("[toolchain]\ncomponents = [\n  \"rustfmt\",\n  \"clippy\"\n]\nprofile = \"minimal\"\n"));
        assert!(!plain_toolchain("[toolchain]\npath = \"/tmp/evil\"\n"));
        assert!(!plain_toolchain("[toolchain]\nchannel = \"stable\"\n[other]\nx = 1\n"));
        assert!(!plain_toolchain("toolchain = { path = \"/tmp/evil\" }\n"));
        assert!(!plain_toolchain("/tmp/evil\n"));
    }

    #[test]
    fn cargo_configuration_in_or_above_the_pack_is_found() {
        let tmp = tempfile::tempdir().unwrap();
        let pack = tmp.path().join("repo/pack");
        std::fs::create_dir_all(pack.join(".cargo")).unwrap();
        std::fs::create_dir_all(tmp.path().join("repo/.cargo")).unwrap();
        let inside = std::fs::canonicalize(tmp.path()).unwrap().to_string_lossy().into_owned();
        assert!(folder_findings(&pack).iter().all(|f| !f.what.starts_with(&inside)), "empty .cargo folders are nothing");
        std::fs::write(pack.join(".cargo/config.toml"), "[build]\nrustc-wrapper = \"./x\"\n").unwrap();
        std::fs::write(tmp.path().join("repo/.cargo/config"), "").unwrap();
        std::fs::write(pack.join("rust-toolchain.toml"), "[toolchain]\npath = \"/x\"\n").unwrap();
        let found: Vec<BuildCode> = folder_findings(&pack).into_iter().filter(|f| f.what.starts_with(&inside)).collect();
        let kinds: Vec<(BuildCodeKind, &str)> = found.iter().map(|f| (f.kind, f.source.as_str())).collect();
        assert_eq!(kinds, [(BuildCodeKind::CargoConfig, "this pack"), (BuildCodeKind::CargoConfig, "a folder above the pack"), (BuildCodeKind::Toolchain, "this pack")]);
    }
}
