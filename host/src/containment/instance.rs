//! One instance, one folder: every app capstan launches gets its own folder under
//! `CAPSTAN_HOME/instances/<id>/` with its runtime file, output folder and private
//! temporary folder, and its own port. Eval, tests, batch workers and the user's live
//! session never share any of them, so one instance can neither overwrite nor remove
//! another's runtime file.
//!
//! Security reasoning: the instance folder itself is capstan's, outside the app's
//! grants; the app can write only `output/` and `tmp/` below it. The authoritative
//! runtime record (`server.json`: address, token, pid, exec key, containment layers) is
//! written by capstan beside them, where the confined app cannot reach it, and the
//! secrets reach the app through an inherited pipe, never its environment (which
//! `/proc/<pid>/environ` keeps for the process's lifetime).

use crate::home::CapstanHome;
use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};

/// The folder under `CAPSTAN_HOME` that holds one folder per instance.
const INSTANCES: &str = "instances";

/// The environment variable naming a port range for launched apps (`LO-HI`).
pub const PORTS_ENV: &str = "CAPSTAN_BRIDGE_PORTS";

/// An instance's folders.
#[derive(Debug, Clone)]
pub struct Instance {
    pub id: String,
    pub dir: PathBuf,
    pub output: PathBuf,
    pub tmp: PathBuf,
    /// capstan's record of the instance (read by clients of this instance).
    pub runtime_file: PathBuf,
}

impl Instance {
    /// A new instance folder with owner-only `output/` and `tmp/`.
    pub fn create(home: &CapstanHome) -> io::Result<Instance> {
        let base = home.root().join(INSTANCES);
        crate::fsutil::create_private_dir(home.root())?;
        crate::fsutil::create_private_dir(&base)?;
        let mut random = [0u8; 4];
        getrandom::fill(&mut random).map_err(|e| io::Error::other(e.to_string()))?;
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        let id = format!("{stamp}-{}-{}", std::process::id(), hex::encode(random));
        let dir = base.join(&id);
        std::fs::create_dir(&dir)?;
        set_private(&dir)?;
        let instance = Instance { output: dir.join("output"), tmp: dir.join("tmp"), runtime_file: dir.join("server.json"), id, dir };
        for sub in [&instance.output, &instance.tmp] {
            std::fs::create_dir(sub)?;
            set_private(sub)?;
        }
        Ok(instance)
    }

    /// The folder of the instance `id` under `home_root`: the one place that names
    /// `instances/<id>`. None for a malformed id, so an id read from a record never
    /// climbs out of `instances/`.
    pub fn dir_of(home_root: &Path, id: &str) -> Option<PathBuf> {
        is_instance_id(id).then(|| home_root.join(INSTANCES).join(id))
    }

    /// The output folder of the instance `id` under `home_root` (None for a malformed id).
    pub fn output_of(home_root: &Path, id: &str) -> Option<PathBuf> {
        Self::dir_of(home_root, id).map(|d| d.join("output"))
    }

    /// After the app stopped and its records went: remove the private temporary folder,
    /// then the output folder and the instance's own folder if nothing is left in them
    /// (an output with files stays: it holds the user's work). A batch starts many
    /// instances; none leaves an empty folder behind.
    pub fn clean_up(&self) {
        let _ = std::fs::remove_dir_all(&self.tmp);
        let _ = std::fs::remove_dir(&self.output);
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// An id as [`Instance::create`] makes them: digits, lower-case hex and `-`, at most 64.
pub fn is_instance_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b) || b == b'-') && !id.starts_with('-')
}

fn set_private(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    let _ = dir;
    Ok(())
}

#[derive(Debug, thiserror::Error)]
pub enum PortError {
    #[error("{PORTS_ENV}={value:?} is not a port range like 9876-9885")]
    BadRange { value: String },
    #[error("no free port on 127.0.0.1 in {lo}-{hi} ({PORTS_ENV})")]
    RangeFull { lo: u16, hi: u16 },
    #[error("cannot listen on 127.0.0.1:{port}: {detail}")]
    Bind { port: u16, detail: String },
}

/// Parse `LO-HI` (inclusive, LO <= HI, no port 0).
pub fn parse_range(value: &str) -> Option<(u16, u16)> {
    let (lo, hi) = value.trim().split_once('-')?;
    let (lo, hi): (u16, u16) = (lo.trim().parse().ok()?, hi.trim().parse().ok()?);
    (lo > 0 && lo <= hi).then_some((lo, hi))
}

/// The listening socket for an instance's bridge, bound by capstan on loopback: `port`
/// when given, else the first free one of the configured range, else one the OS picks.
/// The app gets the socket already listening and binds nothing itself.
pub fn listen(port: Option<u16>) -> Result<TcpListener, PortError> {
    let bind = |p: u16| TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, p))).map_err(|e| PortError::Bind { port: p, detail: e.to_string() });
    if let Some(p) = port {
        return bind(p);
    }
    match std::env::var(PORTS_ENV) {
        Ok(value) if !value.trim().is_empty() => {
            let (lo, hi) = parse_range(&value).ok_or(PortError::BadRange { value })?;
            (lo..=hi).find_map(|p| bind(p).ok()).ok_or(PortError::RangeFull { lo, hi })
        }
        _ => bind(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_get_their_own_private_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let home = CapstanHome::at(tmp.path());
        let a = Instance::create(&home).unwrap();
        let b = Instance::create(&home).unwrap();
        assert_ne!(a.dir, b.dir);
        assert_ne!(a.runtime_file, b.runtime_file);
        for dir in [&a.dir, &a.output, &a.tmp] {
            assert!(dir.is_dir());
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                assert_eq!(std::fs::metadata(dir).unwrap().permissions().mode() & 0o777, 0o700);
            }
        }
        std::fs::write(a.output.join("render.png"), b"work").unwrap();
        a.clean_up();
        assert!(!a.tmp.exists() && a.output.join("render.png").exists(), "the user's work stays");
        b.clean_up();
        assert!(!b.dir.exists(), "an instance that left nothing leaves no folder");
    }

    #[test]
    fn port_ranges_parse_strictly() {
        assert_eq!(parse_range("9876-9885"), Some((9876, 9885)));
        assert_eq!(parse_range(" 10 - 10 "), Some((10, 10)));
        for bad in ["", "9876", "9885-9876", "0-10", "a-b", "1-70000"] {
            assert_eq!(parse_range(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_os_picks_a_port_and_a_taken_port_is_an_error() {
        let first = listen(None).unwrap();
        let port = first.local_addr().unwrap().port();
        assert!(first.local_addr().unwrap().ip().is_loopback());
        assert!(matches!(listen(Some(port)), Err(PortError::Bind { port: p, .. }) if p == port));
    }
}
