//! The `plist` version source: `CFBundleShortVersionString` from a macOS bundle's
//! `Contents/Info.plist` (XML or binary; the `plist` crate reads both).

use super::DottedVersion;
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlistVersionError {
    #[error("cannot read {path}: {detail}")]
    Unreadable { path: String, detail: String },
    #[error("{path} has no CFBundleShortVersionString with a dotted version")]
    NoVersion { path: String },
}

pub fn read(bundle: &Path) -> Result<DottedVersion, PlistVersionError> {
    let path = bundle.join("Contents").join("Info.plist");
    let shown = path.display().to_string();
    let value = plist::Value::from_file(&path).map_err(|e| PlistVersionError::Unreadable { path: shown.clone(), detail: e.to_string() })?;
    value
        .as_dictionary()
        .and_then(|d| d.get("CFBundleShortVersionString"))
        .and_then(plist::Value::as_string)
        .and_then(DottedVersion::find_in)
        .ok_or(PlistVersionError::NoVersion { path: shown })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle_with(dir: &Path, version: Option<&str>, binary: bool) -> std::path::PathBuf {
        let app = dir.join(if binary { "Bin.app" } else { "Xml.app" });
        std::fs::create_dir_all(app.join("Contents")).unwrap();
        let mut dict = plist::Dictionary::new();
        dict.insert("CFBundleName".into(), "Sculptor".into());
        if let Some(v) = version {
            dict.insert("CFBundleShortVersionString".into(), v.into());
        }
        let value = plist::Value::Dictionary(dict);
        let file = app.join("Contents/Info.plist");
        if binary { value.to_file_binary(&file).unwrap() } else { value.to_file_xml(&file).unwrap() }
        app
    }

    #[test]
    fn xml_and_binary_plists_are_read() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read(&bundle_with(dir.path(), Some("4.5.3"), false)).unwrap().as_str(), "4.5.3");
        assert_eq!(read(&bundle_with(dir.path(), Some("5.0.1"), true)).unwrap().as_str(), "5.0.1");
    }

    #[test]
    fn a_missing_key_or_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(read(&bundle_with(dir.path(), None, false)), Err(PlistVersionError::NoVersion { .. })));
        assert!(matches!(read(&dir.path().join("Nope.app")), Err(PlistVersionError::Unreadable { .. })));
        let garbage = dir.path().join("Bad.app");
        std::fs::create_dir_all(garbage.join("Contents")).unwrap();
        std::fs::write(garbage.join("Contents/Info.plist"), b"\x00\x01 not a plist").unwrap();
        assert!(matches!(read(&garbage), Err(PlistVersionError::Unreadable { .. })));
    }
}
