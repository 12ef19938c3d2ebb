//! The on-disk cache of compiled components.
//!
//! Key: the component's sha256 plus a digest of the engine's compatibility hash
//! (wasmtime version, target, and every setting that changes generated code, such as
//! epoch interruption). A changed engine therefore never even looks at old artifacts.
//!
//! Security reasoning: deserialising a compiled artifact runs native code that was
//! produced elsewhere, so the host must only ever load files it wrote itself. The
//! cache directory is created owner-only (0700), artifacts are written atomically
//! (temp file + rename), and each artifact has a sidecar with its own sha256 that is
//! checked before every load; a mismatch (corruption, tampering, a truncated write)
//! means the artifact is discarded and the component recompiled from the verified
//! `.wasm`. Artifacts and sidecars are read and written through the cache folder's
//! directory handle (`crate::confined`): a symlink planted in the cache that points
//! outside it is never read (the artifact is recompiled and the link replaced). A
//! warm start therefore never recompiles, and never trusts blindly.

use crate::confined::Folder;
use crate::fsutil;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use wasmtime::Engine;
use wasmtime::component::Component;

/// What happened when a component was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheOutcome {
    /// Loaded a verified artifact from disk.
    Hit,
    /// Compiled (no artifact yet) and stored.
    Compiled,
    /// An artifact failed verification; recompiled and replaced.
    Replaced,
}

#[derive(Debug, Default)]
pub struct CacheStats {
    pub hits: AtomicU64,
    pub compiled: AtomicU64,
    pub replaced: AtomicU64,
}

impl CacheStats {
    pub fn compiled_total(&self) -> u64 {
        self.compiled.load(Ordering::Relaxed) + self.replaced.load(Ordering::Relaxed)
    }
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }
}

/// `CAPSTAN_COMPONENT_CACHE`: a folder of compiled components shared by every
/// `CAPSTAN_HOME` of this user (the test command's many fresh homes, or a user who keeps
/// several homes), instead of each home's own `cache/components`.
pub const SHARED_CACHE_ENV: &str = "CAPSTAN_COMPONENT_CACHE";

/// Where compiled components are kept for `home`: the shared folder
/// [`SHARED_CACHE_ENV`] names when it is trusted, else the home's own.
///
/// Security reasoning: an artifact here is native code this process will run, and its
/// sidecar digest only proves it is what was written, not who wrote it. So a shared
/// folder is used only when it is as private as a home's own cache: an absolute path,
/// a real folder (not a symbolic link), owned by this user and with no group or world
/// bits at all (it is created 0700 when missing). Anything else is refused with a
/// warning, and the home's own cache is used; no artifact is ever read from it.
pub fn location(home: &crate::home::CapstanHome) -> PathBuf {
    match std::env::var_os(SHARED_CACHE_ENV).filter(|v| !v.is_empty()) {
        None => home.cache_dir(),
        Some(dir) => match shared_folder(Path::new(&dir)) {
            Ok(dir) => dir,
            Err(reason) => {
                tracing::warn!(folder = %Path::new(&dir).display(), %reason, "{SHARED_CACHE_ENV} is not used; compiling into this home's own cache");
                home.cache_dir()
            }
        },
    }
}

fn shared_folder(dir: &Path) -> Result<PathBuf, String> {
    if !dir.is_absolute() {
        return Err("not an absolute path".into());
    }
    fsutil::create_private_dir(dir).map_err(|e| format!("cannot create it: {e}"))?;
    let meta = std::fs::symlink_metadata(dir).map_err(|e| e.to_string())?;
    if !meta.file_type().is_dir() {
        return Err("not a folder (a symbolic link or a file)".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = crate::bridge::ownership::current_uid();
        if meta.uid() != me {
            return Err(format!("owned by uid {}, not by this user ({me})", meta.uid()));
        }
        if meta.mode() & 0o077 != 0 {
            return Err(format!("mode {:o}: others may read or write it (it must be 0700)", meta.mode() & 0o777));
        }
    }
    Ok(dir.to_path_buf())
}

pub struct ComponentCache {
    dir: PathBuf,
    engine_key: String,
    pub stats: CacheStats,
}

/// Feeds `Hash` output into sha256, so the key is stable across processes (unlike
/// `DefaultHasher`, whose seed is an implementation detail).
struct ShaHasher(sha2::Sha256);

impl Hasher for ShaHasher {
    fn finish(&self) -> u64 {
        unreachable!("only the full digest is used")
    }
    fn write(&mut self, bytes: &[u8]) {
        use sha2::Digest;
        self.0.update(bytes);
    }
}

fn engine_key(engine: &Engine) -> String {
    use sha2::Digest;
    use std::hash::Hash;
    let mut h = ShaHasher(sha2::Sha256::new());
    engine.precompile_compatibility_hash().hash(&mut h);
    hex::encode(&h.0.finalize()[..12])
}

impl ComponentCache {
    pub fn new(engine: &Engine, dir: PathBuf) -> Self {
        ComponentCache { dir, engine_key: engine_key(engine), stats: CacheStats::default() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The artifact's file name in the cache folder (a digest and the engine key:
    /// hex only, chosen here).
    fn artifact_name(&self, component_sha256: &str) -> String {
        format!("{component_sha256}-{}.cwasm", self.engine_key)
    }

    /// The compiled component for `bytes`, whose sha256 the caller has verified.
    pub fn load_or_compile(
        &self,
        engine: &Engine,
        component_sha256: &str,
        bytes: &[u8],
    ) -> wasmtime::Result<(Component, CacheOutcome)> {
        let name = self.artifact_name(component_sha256);
        let path = self.dir.join(&name);
        let folder = Folder::open(&self.dir).ok();
        let had_artifact = folder.as_ref().is_some_and(|f| f.exists(&name));
        if let Some(folder) = folder.as_ref().filter(|_| had_artifact) {
            match self.load_verified(engine, folder, &name) {
                Ok(component) => {
                    self.stats.hits.fetch_add(1, Ordering::Relaxed);
                    return Ok((component, CacheOutcome::Hit));
                }
                Err(reason) => {
                    tracing::warn!(artifact = %path.display(), %reason, "discarding cached artifact; recompiling");
                }
            }
        }
        let component = Component::new(engine, bytes)?;
        match component.serialize() {
            Ok(artifact) => {
                if let Err(e) = self.store(&name, &artifact) {
                    tracing::warn!(dir = %self.dir.display(), error = %e, "cannot write the component cache; the next start compiles again");
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot serialise a compiled component"),
        }
        let outcome = if had_artifact {
            self.stats.replaced.fetch_add(1, Ordering::Relaxed);
            CacheOutcome::Replaced
        } else {
            self.stats.compiled.fetch_add(1, Ordering::Relaxed);
            CacheOutcome::Compiled
        };
        Ok((component, outcome))
    }

    fn load_verified(&self, engine: &Engine, folder: &Folder, name: &str) -> Result<Component, String> {
        let expected = folder.read_text(sidecar(name), 1024).map_err(|e| format!("no digest sidecar: {e}"))?;
        let artifact = folder.read(name, MAX_ARTIFACT_BYTES).map_err(|e| format!("unreadable: {e}"))?;
        if fsutil::sha256_hex(&artifact) != expected.trim() {
            return Err("digest mismatch".into());
        }
        // SAFETY: the artifact was written by this cache (owner-only directory, atomic
        // rename) and its bytes match the digest recorded when it was written, so it
        // is exactly what `Component::serialize` produced. wasmtime additionally checks
        // its header against this engine's configuration and refuses a mismatch.
        unsafe { Component::deserialize(engine, &artifact) }.map_err(|e| format!("rejected by wasmtime: {e}"))
    }

    fn store(&self, name: &str, artifact: &[u8]) -> std::io::Result<()> {
        let folder = Folder::create_private(&self.dir)?;
        let digest = fsutil::sha256_hex(artifact);
        // Sidecar first: an artifact without a matching sidecar is never loaded.
        folder.write_private_atomic(&sidecar(name), digest.as_bytes())?;
        folder.write_private_atomic(name, artifact)
    }
}

/// The largest compiled artifact the cache reads (compiled code is several times the
/// size of the component it comes from).
const MAX_ARTIFACT_BYTES: u64 = 16 * crate::limits::MAX_COMPONENT_BYTES;

fn sidecar(name: &str) -> String {
    format!("{name}.sha256")
}

#[cfg(test)]
mod tests {
    use super::shared_folder;
    use std::path::Path;

    #[test]
    fn a_shared_cache_is_used_only_when_it_is_private() {
        let scratch = tempfile::tempdir().unwrap();
        // Missing: created owner-only, then used.
        let fresh = scratch.path().join("a/b/components");
        assert_eq!(shared_folder(&fresh).unwrap(), fresh);
        assert!(shared_folder(Path::new("relative/components")).is_err());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let open = scratch.path().join("open");
            std::fs::create_dir(&open).unwrap();
            std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
            assert!(shared_folder(&open).unwrap_err().contains("0700"));
            let link = scratch.path().join("link");
            std::os::unix::fs::symlink(&fresh, &link).unwrap();
            assert!(shared_folder(&link).unwrap_err().contains("symbolic link"));
        }
    }
}
