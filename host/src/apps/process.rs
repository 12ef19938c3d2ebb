//! Is the app running at all? Used only to tell `app_not_running` (nothing runs)
//! from `endpoint_unavailable` (the app runs, but its bridge published no usable
//! runtime file) when the runtime file cannot answer that.
//!
//! Linux: the user's own processes in /proc whose command name or argv[0] is one of
//! the app's executable names, or whose arguments name one of the given markers (the
//! bridge runner of a Python-hosted Blender), and whose effective `CAPSTAN_HOME` is
//! ours: a Blender serving another capstan home publishes its runtime file elsewhere,
//! so it says nothing about this one. Elsewhere the answer is unknown.

use std::path::Path;

/// Some(true) when a matching process runs, Some(false) when none does, None when
/// this OS cannot tell.
pub fn any_running(executable_names: &[String], markers: &[&str], home: &Path) -> Option<bool> {
    #[cfg(target_os = "linux")]
    {
        Some(linux::any_running(executable_names, markers, home))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (executable_names, markers, home);
        None
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::os::unix::fs::MetadataExt;
    use std::path::{Path, PathBuf};

    pub fn any_running(names: &[String], markers: &[&str], home: &Path) -> bool {
        let Ok(entries) = std::fs::read_dir("/proc") else { return false };
        // SAFETY: getuid has no preconditions.
        let uid = unsafe { libc::getuid() };
        let me = std::process::id();
        entries.flatten().any(|entry| {
            let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { return false };
            if pid == me || entry.metadata().map(|m| m.uid()).ok() != Some(uid) {
                return false;
            }
            let dir = entry.path();
            let comm = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
            let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
            matches(comm.trim(), &cmdline, names, markers) && effective_home(&std::fs::read(dir.join("environ")).unwrap_or_default()).is_some_and(|h| same_path(&h, home))
        })
    }

    /// `CAPSTAN_HOME` from a process environment block, or its default `$HOME/.capstan`.
    pub(super) fn effective_home(environ: &[u8]) -> Option<PathBuf> {
        let var = |name: &str| {
            environ.split(|b| *b == 0).find_map(|kv| kv.strip_prefix(name.as_bytes()).and_then(|rest| rest.strip_prefix(b"="))).map(|v| PathBuf::from(String::from_utf8_lossy(v).into_owned()))
        };
        var(crate::home::HOME_ENV).filter(|p| !p.as_os_str().is_empty()).or_else(|| var("HOME").map(|h| h.join(".capstan")))
    }

    fn same_path(a: &Path, b: &Path) -> bool {
        a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
    }

    pub(super) fn matches(comm: &str, cmdline: &[u8], names: &[String], markers: &[&str]) -> bool {
        let args: Vec<String> = cmdline.split(|b| *b == 0).filter(|a| !a.is_empty()).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
        let argv0 = args.first().map(|a| a.rsplit(['/', '\\']).next().unwrap_or(a).to_string()).unwrap_or_default();
        // /proc/PID/comm holds at most 15 bytes of the name.
        let by_name = names.iter().any(|n| argv0 == *n || (!comm.is_empty() && n.starts_with(comm) && (comm.len() == n.len() || comm.len() == 15)));
        by_name || args.iter().skip(1).any(|a| markers.iter().any(|m| a.contains(m)))
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::linux::{effective_home, matches};
    use std::path::PathBuf;

    #[test]
    fn processes_match_by_name_argv0_or_marker() {
        let names = vec!["sculptor".to_string()];
        assert!(matches("sculptor", b"/opt/sculptor/sculptor\0-b\0", &names, &[]));
        assert!(matches("Sculptor Render", b"/usr/bin/sculptor\0", &names, &[]));
        assert!(matches("python3", b"/venv/bin/python\0/x/bridges/sculptor/run_bridge.py\0", &names, &["run_bridge.py"]));
        assert!(!matches("python3", b"/venv/bin/python\0-m\0pytest\0", &names, &["run_bridge.py"]));
        assert!(!matches("sculptorfoo", b"/usr/bin/sculptorfoo\0", &names, &[]));
        assert!(!matches("vim", b"vim\0sculptor.txt\0", &names, &[]));
    }

    #[test]
    fn the_home_comes_from_the_environment_or_its_default() {
        assert_eq!(effective_home(b"PATH=/bin\0CAPSTAN_HOME=/srv/c\0HOME=/root\0"), Some(PathBuf::from("/srv/c")));
        assert_eq!(effective_home(b"HOME=/home/ada\0"), Some(PathBuf::from("/home/ada/.capstan")));
        assert_eq!(effective_home(b"PATH=/bin\0"), None);
    }

    #[test]
    fn only_processes_serving_this_home_count_and_never_the_scanner() {
        let home = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        let me = std::env::current_exe().unwrap();
        let name = me.file_name().unwrap().to_string_lossy().to_string();
        assert_eq!(super::any_running(&[name], &[], home.path()), Some(false), "the scan skips its own process");
        let marker = format!("capstan-scan-test-{}", std::process::id());
        let mut child = std::process::Command::new("sh").args(["-c", "sleep 30", &marker]).env("CAPSTAN_HOME", other.path()).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert_eq!(super::any_running(&[], &[&marker], home.path()), Some(false), "another home's process");
        assert_eq!(super::any_running(&[], &[&marker], other.path()), Some(true));
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
