//! The `uninstall_registry` version source, matching half: among the uninstall
//! entries of the Windows registry, the ones whose `DisplayName` starts with the
//! manifest's prefix, and the newest `DisplayVersion` among them.
//!
//! Reading the registry itself needs Windows and is not built yet (see the README's
//! "Not yet"); this matching logic is plain data and tested everywhere.

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
    let prefix = prefix.trim().to_lowercase();
    entries
        .iter()
        .filter(|e| e.display_name.trim_start().to_lowercase().starts_with(&prefix))
        .filter_map(|e| e.display_version.as_deref().and_then(DottedVersion::find_in).map(|v| (v, e)))
        .max_by(|a, b| a.0.cmp(&b.0))
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
            entry("Blender", Some("4.2.3")),
            entry("blender 4.10", Some("4.10.0")),
            entry("Blender Benchmark Launcher", None),
            entry("Not Blender", Some("9.9")),
            entry("Blender", Some("garbage")),
        ];
        let (v, e) = newest(&entries, "Blender").unwrap();
        assert_eq!(v.as_str(), "4.10.0");
        assert_eq!(e.display_name, "blender 4.10");
        assert!(newest(&entries, "Maya").is_none());
        assert!(newest(&[entry("Blender", None)], "Blender").is_none());
    }
}
