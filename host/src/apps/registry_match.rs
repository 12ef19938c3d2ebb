//! The `uninstall_registry` version source, matching half: among the uninstall
//! entries of the Windows registry, the ones whose `DisplayName` starts with the
//! manifest's prefix, and the newest `DisplayVersion` among them.
//!
//! Reading the registry is `registry_read.rs` (Windows only); this matching logic is
//! plain data and tested everywhere.

use super::DottedVersion;

/// One uninstall entry as the registry lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UninstallEntry {
    pub display_name: String,
    pub display_version: Option<String>,
    pub install_location: Option<String>,
}

/// The newest readable version among entries whose display name starts with
/// `prefix` (case-insensitive, ignoring leading spaces), with its entry.
pub fn newest<'a>(entries: &'a [UninstallEntry], prefix: &str) -> Option<(DottedVersion, &'a UninstallEntry)> {
    newest_of(entries.iter(), prefix)
}

fn newest_of<'a>(entries: impl Iterator<Item = &'a UninstallEntry>, prefix: &str) -> Option<(DottedVersion, &'a UninstallEntry)> {
    let prefix = prefix.trim().to_lowercase();
    entries
        .filter(|e| e.display_name.trim_start().to_lowercase().starts_with(&prefix))
        .filter_map(|e| e.display_version.as_deref().and_then(DottedVersion::find_in).map(|v| (v, e)))
        .max_by(|a, b| a.0.cmp(&b.0))
}

/// The version for the install at `exe`: among entries matching `prefix`, those whose
/// `InstallLocation` holds `exe` win (two Blenders side by side each have their own
/// entry); entries without a usable location are the fallback.
pub fn for_install<'a>(entries: &'a [UninstallEntry], prefix: &str, exe: &std::path::Path) -> Option<(DottedVersion, &'a UninstallEntry)> {
    let exe = normalise(&exe.display().to_string());
    let holds_exe = |e: &&UninstallEntry| {
        e.install_location.as_deref().map(normalise).is_some_and(|dir| !dir.is_empty() && exe.starts_with(&format!("{}/", dir.trim_end_matches('/'))))
    };
    newest_of(entries.iter().filter(holds_exe), prefix).or_else(|| newest(entries, prefix))
}

/// Windows paths compare case-insensitively with either slash; quotes that some
/// installers leave around `InstallLocation` are dropped.
fn normalise(path: &str) -> String {
    path.trim().trim_matches('"').replace('\\', "/").to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, version: Option<&str>) -> UninstallEntry {
        UninstallEntry { display_name: name.into(), display_version: version.map(String::from), install_location: None }
    }

    #[test]
    fn the_newest_matching_entry_wins() {
        let entries = [
            entry("Sculptor", Some("4.2.3")),
            entry("sculptor 4.10", Some("4.10.0")),
            entry("Sculptor Benchmark Launcher", None),
            entry("Not Sculptor", Some("9.9")),
            entry("Sculptor", Some("garbage")),
        ];
        let (v, e) = newest(&entries, "Sculptor").unwrap();
        assert_eq!(v.as_str(), "4.10.0");
        assert_eq!(e.display_name, "sculptor 4.10");
        assert!(newest(&entries, "Maya").is_none());
        assert!(newest(&[entry("Sculptor", None)], "Sculptor").is_none());
    }

    #[test]
    fn the_entry_holding_the_found_executable_wins() {
        let located = |name: &str, version: &str, dir: &str| UninstallEntry {
            display_name: name.into(),
            display_version: Some(version.into()),
            install_location: Some(dir.into()),
        };
        let entries = [
            located("Sculptor 4.5 LTS", "4.5.3", r"C:\Program Files\Sculptor Foundation\Sculptor 4.5\"),
            located("Sculptor 5.0", "5.0.1", r"C:\Program Files\Sculptor Foundation\Sculptor 5.0"),
            entry("Sculptor", Some("3.0.0")),
        ];
        let exe = std::path::Path::new(r"c:\program files\sculptor foundation\sculptor 4.5\sculptor.exe");
        assert_eq!(for_install(&entries, "Sculptor", exe).unwrap().0.as_str(), "4.5.3");
        let exe = std::path::Path::new(r"C:/Program Files/Sculptor Foundation/Sculptor 5.0/sculptor.exe");
        assert_eq!(for_install(&entries, "Sculptor", exe).unwrap().0.as_str(), "5.0.1");
        // "Sculptor 4.5" must not claim a file under "Sculptor 4.50".
        let exe = std::path::Path::new(r"C:\Program Files\Sculptor Foundation\Sculptor 4.50\sculptor.exe");
        assert_eq!(for_install(&entries, "Sculptor", exe).unwrap().0.as_str(), "5.0.1", "falls back to the newest entry");
        assert!(for_install(&entries, "Maya", exe).is_none());
    }
}
