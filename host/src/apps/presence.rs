//! Is the app installed? The first declared location that holds it wins.
//!
//! `executable`: a regular file (on Unix with an execute bit). `bundle`: a macOS app
//! bundle, a folder with `Contents/Info.plist`. A location that names an unset
//! variable is skipped, not guessed.

use super::expand::{self, Vars};
use crate::home::CapstanHome;
use crate::manifest::{AppBlock, Presence};
use std::path::{Path, PathBuf};

/// Every declared location where the app is, in manifest order.
pub fn find_all(block: &AppBlock, home: &CapstanHome, vars: &dyn Vars) -> Vec<PathBuf> {
    block.locations.iter().filter_map(|l| expand::expand(l, home, vars)).filter(|p| is_present(p, block.presence)).collect()
}

pub fn is_present(path: &Path, presence: Presence) -> bool {
    match presence {
        Presence::Bundle => path.is_dir() && path.join("Contents").join("Info.plist").is_file(),
        Presence::Executable => is_executable(path),
    }
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::VersionSource;

    struct Home(String);
    impl Vars for Home {
        fn var(&self, name: &str) -> Option<String> {
            (name == "HOME").then(|| self.0.clone())
        }
    }

    fn block(presence: Presence, locations: &[&str]) -> AppBlock {
        AppBlock { presence, locations: locations.iter().map(|s| s.to_string()).collect(), version: VersionSource::None }
    }

    #[cfg(unix)]
    #[test]
    fn the_first_location_holding_an_executable_comes_first() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().display().to_string();
        std::fs::create_dir_all(dir.path().join("a")).unwrap();
        std::fs::create_dir_all(dir.path().join("b")).unwrap();
        std::fs::write(dir.path().join("a/sculptor"), "not executable").unwrap();
        std::fs::write(dir.path().join("b/sculptor"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(dir.path().join("b/sculptor"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let home = CapstanHome::at(dir.path());
        let vars = Home(root.clone());
        let b = block(Presence::Executable, &["$NOPE/sculptor", &format!("{root}/a/sculptor"), "~/b/sculptor", &format!("{root}/b/sculptor")]);
        assert_eq!(find_all(&b, &home, &vars).first(), Some(&dir.path().join("b/sculptor")), "the first location holding it comes first");
        assert!(find_all(&block(Presence::Executable, &[&format!("{root}/a/sculptor")]), &home, &vars).is_empty());
    }

    #[test]
    fn a_bundle_is_a_folder_with_an_info_plist() {
        let dir = tempfile::tempdir().unwrap();
        let app = dir.path().join("Sculptor.app");
        std::fs::create_dir_all(app.join("Contents")).unwrap();
        let home = CapstanHome::at(dir.path());
        let b = block(Presence::Bundle, &[&app.display().to_string()]);
        assert!(find_all(&b, &home, &Home(String::new())).is_empty(), "no Info.plist yet");
        std::fs::write(app.join("Contents/Info.plist"), "<plist/>").unwrap();
        assert_eq!(find_all(&b, &home, &Home(String::new())), vec![app]);
    }
}
