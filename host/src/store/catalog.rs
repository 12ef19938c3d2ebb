//! The catalog: named packs pinned to a git commit and a component digest.
//!
//! `$CAPSTAN_HOME/catalog.json` (or `--catalog FILE`) is a JSON array of
//! `{name, description, source, commit, sha256, platforms, path?}`: `source` a git URL,
//! `commit` a full 40-hex sha, `sha256` the component's digest, `path` the pack's folder
//! inside the repository (default: its root).
//!
//! Security reasoning: a name resolves to exactly one commit and one component digest.
//! capstan clones the repository, checks out that commit detached (never a branch
//! tip, which can move), confirms HEAD *is* that commit, and refuses a component whose
//! sha256 differs from the catalog's before the install gate runs its own checks.
//!
//! git itself is the other half, and it runs as a tool with nothing of the user's
//! configuration (see [`git_command`]):
//! - no system or global configuration (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL=/dev/null`),
//!   and every `GIT_*` variable of capstan's environment removed (`GIT_CONFIG_COUNT`
//!   and friends inject configuration too): no `insteadOf` rewrites, no filter
//!   drivers (so no LFS smudge, `GIT_LFS_SKIP_SMUDGE=1` besides), no credential
//!   helpers, no askpass and no terminal prompts, no hooks, no fsmonitor;
//! - exactly one transport: the one the entry's `source` uses, among those the catalog
//!   allows ([`Transport`]: https, ssh, or a local repository). `protocol.allow=never`
//!   refuses every other one, so nothing the remote says (a redirect, a submodule, an
//!   alternate) can make git run `ext::` commands or read local files;
//! - a cap on what is fetched: the clone's folder is measured while git runs, and git
//!   is killed past [`FetchLimits::max_bytes`] or [`FetchLimits::timeout`];
//! - symlinks are checked out as plain files (`core.symlinks=false`), and the pack is
//!   read through the checkout's directory handle (`crate::confined`), so neither a
//!   symlinked pack folder nor a symlinked component can lead out of the checkout.

use crate::confined::Folder;
use crate::manifest::Platform;
use crate::plugin::PackSource;
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogEntry {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub source: String,
    pub commit: String,
    pub sha256: String,
    pub platforms: Vec<String>,
    #[serde(default)]
    pub path: Option<String>,
}

/// An official pack as a catalog entry. It ships inside this binary, so its source is
/// the binary and its pin is the component digest the build sealed into its manifest;
/// `capstan packs install NAME` re-checks that digest and the app requirement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OfficialEntry {
    pub name: String,
    pub description: String,
    pub version: String,
    pub sha256: String,
    pub platforms: Vec<String>,
}

/// The official packs, as catalog entries (sorted by name).
pub fn official_entries() -> Vec<OfficialEntry> {
    let mut entries: Vec<OfficialEntry> = crate::packs::official()
        .iter()
        .filter_map(|o| crate::manifest::parse(o.manifest).ok())
        .map(|m| OfficialEntry {
            name: m.name,
            description: m.description,
            version: m.version.to_string(),
            sha256: m.sha256.unwrap_or_default(),
            platforms: m.platforms.iter().map(|p| p.key().to_string()).collect(),
        })
        .collect();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    entries
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogError {
    #[error("cannot read the catalog {path}: {detail}")]
    Unreadable { path: PathBuf, detail: String },
    #[error("the catalog {path} is invalid: {detail}")]
    Invalid { path: PathBuf, detail: String },
    #[error("no catalog entry named {name:?}")]
    NotFound { name: String },
    #[error("fetching {name} from {source_url} at {commit}: {detail}")]
    Fetch { name: String, source_url: String, commit: String, detail: String },
    #[error("{name}: the component's sha256 is {actual}, the catalog pins {expected}")]
    DigestMismatch { name: String, expected: String, actual: String },
}

/// The git transports a catalog entry may use. Each fetch allows exactly its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// `https://host/...`
    Https,
    /// `ssh://...` or the scp-like `user@host:path`.
    Ssh,
    /// A repository on this machine: an absolute path or `file:///...`. A catalog that
    /// names one was written by someone who can read that folder anyway.
    File,
}

impl Transport {
    /// The transport `source` uses, if the catalog allows it. Refused: `ext::` and
    /// every other `<helper>::` form (they run commands), plain `http://` and `git://`
    /// (unauthenticated), relative paths (they depend on the working folder), and
    /// anything starting with `-` (an option to git).
    pub fn of(source: &str) -> Option<Transport> {
        if source.is_empty() || source.starts_with('-') || source.contains("::") || source.contains(char::is_whitespace) {
            return None;
        }
        if let Some(rest) = source.strip_prefix("https://") {
            return (!rest.is_empty()).then_some(Transport::Https);
        }
        if let Some(rest) = source.strip_prefix("ssh://") {
            return (!rest.is_empty()).then_some(Transport::Ssh);
        }
        if source.strip_prefix("file://").is_some_and(|p| p.starts_with('/')) || (source.starts_with('/') && !source.contains("://")) {
            return Some(Transport::File);
        }
        // scp-like: `user@host:path`, with no scheme and no '/' before the ':'.
        if let Some((host, path)) = source.split_once(':')
            && !host.is_empty()
            && !host.contains('/')
            && host.contains('@')
            && !path.is_empty()
            && !path.starts_with("//")
        {
            return Some(Transport::Ssh);
        }
        None
    }

    /// git's name for the protocol (`protocol.<name>.allow`).
    fn protocol(self) -> &'static str {
        match self {
            Transport::Https => "https",
            Transport::Ssh => "ssh",
            Transport::File => "file",
        }
    }
}

/// Bounds on one fetch: what the clone may take on disk, and for how long git runs.
#[derive(Debug, Clone, Copy)]
pub struct FetchLimits {
    pub max_bytes: u64,
    pub timeout: Duration,
}

impl Default for FetchLimits {
    fn default() -> Self {
        FetchLimits { max_bytes: crate::limits::MAX_CATALOG_FETCH_BYTES, timeout: crate::limits::CATALOG_FETCH_TIMEOUT }
    }
}

fn is_hex(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Read and check a catalog file.
pub fn load(path: &Path) -> Result<Vec<CatalogEntry>, CatalogError> {
    let text = crate::fsutil::read_capped(path, crate::limits::MAX_MANIFEST_BYTES * 16)
        .map_err(|e| CatalogError::Unreadable { path: path.to_path_buf(), detail: e.to_string() })?;
    let invalid = |detail: String| CatalogError::Invalid { path: path.to_path_buf(), detail };
    let entries: Vec<CatalogEntry> = serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))?;
    for (i, e) in entries.iter().enumerate() {
        let at = format!("[{i}] ({})", e.name);
        if !is_hex(&e.commit, 40) {
            return Err(invalid(format!("{at}.commit must be a full 40-hex commit sha, not a branch or a short sha")));
        }
        if !is_hex(&e.sha256, 64) {
            return Err(invalid(format!("{at}.sha256 must be 64 lowercase hex digits")));
        }
        if Transport::of(&e.source).is_none() {
            return Err(invalid(format!(
                "{at}.source must be an https://, ssh:// (or user@host:path) URL or an absolute path to a local repository; ext:: and other transports are not allowed"
            )));
        }
        if let Some(p) = &e.path
            && !is_plain_relative(p)
        {
            return Err(invalid(format!("{at}.path must be a plain relative folder inside the repository")));
        }
        if let Some(bad) = e.platforms.iter().find(|p| Platform::parse(p).is_none()) {
            return Err(invalid(format!("{at}.platforms: unknown platform {bad:?}")));
        }
        if crate::packs::official().iter().any(|o| o.name == e.name) {
            return Err(invalid(format!("{at}: {:?} is the name of an official pack, which ships inside capstan", e.name)));
        }
        if entries[..i].iter().any(|o| o.name == e.name) {
            return Err(invalid(format!("{at}: the name is listed twice")));
        }
    }
    Ok(entries)
}

/// `a/b/c`: no leading `/`, no `..` or `.` parts, no backslash, no scheme.
fn is_plain_relative(p: &str) -> bool {
    !p.is_empty() && !p.starts_with('/') && !p.contains(['\\', ':']) && p.split('/').all(|part| !part.is_empty() && part != ".." && part != ".")
}

pub fn find<'a>(entries: &'a [CatalogEntry], name: &str) -> Result<&'a CatalogEntry, CatalogError> {
    entries.iter().find(|e| e.name == name).ok_or_else(|| CatalogError::NotFound { name: name.into() })
}

/// Check out `entry`'s pinned commit into `work` and read the pack folder in it
/// (through the checkout's handle), with its component's digest confirmed against the
/// catalog. The bytes returned are the ones checked.
pub fn fetch(entry: &CatalogEntry, work: &Path, limits: &FetchLimits) -> Result<PackSource, CatalogError> {
    let fail = |detail: String| CatalogError::Fetch { name: entry.name.clone(), source_url: entry.source.clone(), commit: entry.commit.clone(), detail };
    let transport = Transport::of(&entry.source).ok_or_else(|| fail("the source's transport is not allowed".into()))?;
    let started = Instant::now();
    let left = || limits.timeout.saturating_sub(started.elapsed());
    let bounds = |timeout| Bounds { watch: work.to_path_buf(), max_bytes: limits.max_bytes, timeout };
    git(work, transport, &["clone", "--quiet", "--no-checkout", "--no-local", "--", &entry.source, "repo"], &bounds(left())).map_err(fail)?;
    let repo = work.join("repo");
    git(&repo, transport, &["-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", &entry.commit], &bounds(left())).map_err(fail)?;
    let head = git(&repo, transport, &["rev-parse", "HEAD"], &bounds(left())).map_err(fail)?;
    if head.trim() != entry.commit {
        return Err(fail(format!("HEAD is {}, not the pinned commit", head.trim())));
    }
    let checkout = Folder::open(&repo).map_err(|e| fail(format!("cannot open the checkout: {e}")))?;
    let dir = match &entry.path {
        Some(p) => checkout.open_folder(p).map_err(|e| fail(format!("the pinned commit has no folder {p:?} (a symlink is not followed): {e}")))?,
        None => checkout,
    };
    let source = super::pack_folder::read(&dir).map_err(|e| fail(format!("the pinned commit has no valid pack: {e}")))?;
    let actual = crate::fsutil::sha256_hex(&source.component);
    if actual != entry.sha256 {
        return Err(CatalogError::DigestMismatch { name: entry.name.clone(), expected: entry.sha256.clone(), actual });
    }
    Ok(source)
}

/// A git run's bounds: the folder whose size is capped, and the time it may take.
struct Bounds {
    watch: PathBuf,
    max_bytes: u64,
    timeout: Duration,
}

/// git, with none of the user's configuration and only `transport` allowed (see the
/// module doc for each setting).
fn git_command(dir: &Path, transport: Transport) -> Command {
    let mut command = Command::new("git");
    command.current_dir(dir);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("GIT_") {
            command.env_remove(key);
        }
    }
    command
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_LFS_SKIP_SMUDGE", "1")
        .env("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
        .env_remove("SSH_ASKPASS")
        .args(["-c", "protocol.allow=never", "-c"])
        .arg(format!("protocol.{}.allow=always", transport.protocol()))
        .args([
            "-c", "core.hooksPath=/dev/null",
            "-c", "core.symlinks=false",
            "-c", "core.fsmonitor=false",
            "-c", "core.askPass=",
            "-c", "credential.helper=",
            "-c", "http.followRedirects=false",
            "-c", "submodule.recurse=false",
            "-c", "transfer.fsckObjects=true",
        ]);
    command
}

/// Run git in `dir`; its stdout, or why it failed (stopped past the bounds included).
fn git(dir: &Path, transport: Transport, args: &[&str], bounds: &Bounds) -> Result<String, String> {
    let what = args.iter().find(|a| !a.starts_with('-') && !a.contains('=')).copied().unwrap_or("");
    let mut child = git_command(dir, transport)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let capture = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(pipe) = pipe {
                let _ = pipe.take(64 * 1024).read_to_end(&mut out);
            }
            String::from_utf8_lossy(&out).into_owned()
        })
    };
    let stdout = capture(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = capture(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let started = Instant::now();
    let stopped = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) => {}
            Err(e) => break Err(format!("git {what}: {e}")),
        }
        if started.elapsed() > bounds.timeout {
            break Err(format!("git {what} did not finish within {} s", bounds.timeout.as_secs()));
        }
        let used = disk_usage(&bounds.watch);
        if used > bounds.max_bytes {
            break Err(format!("the fetch is larger than the limit of {} bytes (stopped at {used})", bounds.max_bytes));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if stopped.is_err() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let status = stopped?;
    let (stdout, stderr) = (stdout.join().unwrap_or_default(), stderr.join().unwrap_or_default());
    // What git wrote can still have crossed the cap between two looks.
    let used = disk_usage(&bounds.watch);
    if used > bounds.max_bytes {
        return Err(format!("the fetch is larger than the limit of {} bytes ({used})", bounds.max_bytes));
    }
    if status.success() { Ok(stdout) } else { Err(format!("git {what} failed: {}", stderr.trim())) }
}

/// Bytes of the regular files under `dir`, symlinks not followed (they count as
/// their own small size).
fn disk_usage(dir: &Path) -> u64 {
    let Ok(root) = Folder::open(dir) else { return 0 };
    let mut total = 0;
    let mut stack = vec![root];
    while let Some(folder) = stack.pop() {
        for entry in folder.entries().unwrap_or_default() {
            if entry.is_dir() {
                if let Ok(sub) = folder.open_folder(&entry.name) {
                    stack.push(sub);
                }
            } else if let Ok(meta) = folder.symlink_metadata(&entry.name) {
                total += meta.len();
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, entries: serde_json::Value) -> PathBuf {
        let p = dir.join("catalog.json");
        std::fs::write(&p, entries.to_string()).unwrap();
        p
    }

    #[test]
    fn entries_must_pin_a_full_commit_and_digest() {
        let dir = tempfile::tempdir().unwrap();
        let good = serde_json::json!({ "name": "p", "source": "/srv/p.git", "commit": "a".repeat(40), "sha256": "b".repeat(64), "platforms": ["linux"] });
        assert_eq!(load(&write(dir.path(), serde_json::json!([good]))).unwrap().len(), 1);
        for (key, value) in [("commit", "main"), ("commit", "abc1234"), ("sha256", "xyz"), ("source", "--upload-pack=evil"), ("platforms", "haiku")] {
            let mut bad = good.clone();
            bad[key] = if key == "platforms" { serde_json::json!([value]) } else { serde_json::json!(value) };
            assert!(load(&write(dir.path(), serde_json::json!([bad]))).is_err(), "{key}={value}");
        }
        let mut extra = good.clone();
        extra["branch"] = serde_json::json!("main");
        assert!(load(&write(dir.path(), serde_json::json!([extra]))).is_err(), "unknown keys are refused");
        let mut escape = good.clone();
        escape["path"] = serde_json::json!("../outside");
        assert!(load(&write(dir.path(), serde_json::json!([escape]))).is_err());
        assert!(load(&write(dir.path(), serde_json::json!([good.clone(), good]))).is_err(), "duplicate names");
    }

    #[test]
    fn only_the_allowed_transports_are_accepted() {
        for (source, transport) in [
            ("https://example.invalid/packs.git", Transport::Https),
            ("ssh://git@example.invalid/packs.git", Transport::Ssh),
            ("git@example.invalid:team/packs.git", Transport::Ssh),
            ("/srv/packs.git", Transport::File),
            ("file:///srv/packs.git", Transport::File),
        ] {
            assert_eq!(Transport::of(source), Some(transport), "{source}");
        }
        for refused in [
            "ext::sh -c touch% /tmp/pwned",
            "ext::sh",
            "fd::3",
            "transport::https://example.invalid/x",
            "http://example.invalid/packs.git",
            "git://example.invalid/packs.git",
            "relative/path",
            "./repo",
            "--upload-pack=touch /tmp/x",
            "file://relative",
            "",
        ] {
            assert_eq!(Transport::of(refused), None, "{refused}");
        }
        let dir = tempfile::tempdir().unwrap();
        let entry = serde_json::json!({ "name": "p", "source": "ext::sh -c id", "commit": "a".repeat(40), "sha256": "b".repeat(64), "platforms": ["linux"] });
        let e = load(&write(dir.path(), serde_json::json!([entry]))).unwrap_err();
        assert!(e.to_string().contains("ext:: and other transports are not allowed"), "{e}");
    }

    fn git_in(dir: &Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .current_dir(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// A repository whose one commit holds `files` (path, bytes) and `links` (path,
    /// target); the commit's sha.
    fn repo_with(root: &Path, files: &[(&str, &[u8])], links: &[(&str, &str)]) -> (PathBuf, String) {
        let repo = root.join("origin");
        std::fs::create_dir_all(&repo).unwrap();
        git_in(&repo, &["init", "--quiet"]);
        for (path, bytes) in files {
            let at = repo.join(path);
            std::fs::create_dir_all(at.parent().unwrap()).unwrap();
            std::fs::write(at, bytes).unwrap();
        }
        for (path, target) in links {
            let at = repo.join(path);
            std::fs::create_dir_all(at.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(target, at).unwrap();
        }
        git_in(&repo, &["add", "-A"]);
        git_in(&repo, &["commit", "--quiet", "-m", "pack"]);
        let sha = git_in(&repo, &["rev-parse", "HEAD"]);
        (repo, sha)
    }

    const COMPONENT: &[u8] = b"\0asm\x0d\0\x01\0 not a real component";

    fn manifest() -> String {
        serde_json::json!({
            "schema": 1, "name": "p", "version": "0.1.0", "description": "d", "component": "p.wasm",
            "platforms": ["linux"], "servers": { "sculptor": { "commands": ["get_scene_info"] } }
        })
        .to_string()
    }

    fn entry(repo: &Path, commit: &str, path: Option<&str>) -> CatalogEntry {
        CatalogEntry {
            name: "p".into(),
            description: String::new(),
            source: repo.to_string_lossy().into_owned(),
            commit: commit.into(),
            sha256: crate::fsutil::sha256_hex(COMPONENT),
            platforms: vec!["linux".into()],
            path: path.map(String::from),
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_pinned_local_repository_is_fetched_and_read_through_the_checkout() {
        let tmp = tempfile::tempdir().unwrap();
        let (repo, sha) = repo_with(tmp.path(), &[("packs/p/pack.json", manifest().as_bytes()), ("packs/p/p.wasm", COMPONENT)], &[]);
        let work = tmp.path().join("work");
        std::fs::create_dir(&work).unwrap();
        let source = fetch(&entry(&repo, &sha, Some("packs/p")), &work, &FetchLimits::default()).unwrap();
        assert_eq!(&*source.component, COMPONENT);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_in_the_checkout_never_lead_out_of_it() {
        let tmp = tempfile::tempdir().unwrap();
        // A complete pack outside the repository, and a repository whose pack folder
        // (or whose component) is a symlink to it.
        let outside = tmp.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("pack.json"), manifest()).unwrap();
        std::fs::write(outside.join("p.wasm"), COMPONENT).unwrap();
        let (repo, sha) = repo_with(
            tmp.path(),
            &[("inside/pack.json", manifest().as_bytes())],
            &[("packs/p", outside.to_str().unwrap()), ("inside/p.wasm", outside.join("p.wasm").to_str().unwrap())],
        );
        for path in ["packs/p", "inside"] {
            let work = tmp.path().join(format!("work-{}", path.replace('/', "-")));
            std::fs::create_dir(&work).unwrap();
            let e = fetch(&entry(&repo, &sha, Some(path)), &work, &FetchLimits::default()).err().expect("refused");
            assert!(matches!(e, CatalogError::Fetch { .. } | CatalogError::DigestMismatch { .. }), "{path}: {e}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fetch_larger_than_the_cap_is_stopped() {
        let tmp = tempfile::tempdir().unwrap();
        // Random bytes do not compress: the clone really holds about 4 MiB.
        let mut big = vec![0u8; 4 * 1024 * 1024];
        getrandom::fill(&mut big).unwrap();
        let (repo, sha) = repo_with(tmp.path(), &[("pack.json", manifest().as_bytes()), ("p.wasm", COMPONENT), ("big.bin", &big)], &[]);
        let work = tmp.path().join("work");
        std::fs::create_dir(&work).unwrap();
        let limits = FetchLimits { max_bytes: 1024 * 1024, timeout: Duration::from_secs(60) };
        let e = fetch(&entry(&repo, &sha, None), &work, &limits).err().expect("refused");
        assert!(e.to_string().contains("larger than the limit of 1048576 bytes"), "{e}");
        let roomy = tmp.path().join("work2");
        std::fs::create_dir(&roomy).unwrap();
        assert!(fetch(&entry(&repo, &sha, None), &roomy, &FetchLimits::default()).is_ok(), "the same fetch under the default cap");
    }
}
