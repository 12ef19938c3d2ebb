//! The Blender LTS lines capstan supports and tests: 4.5 LTS and 5.2 LTS (the default).
//!
//! Each line is pinned to one PyPI `bpy` release, and `bpy` wheels exist for exactly one
//! CPython minor version per Blender release, so the line also names the Python its
//! headless Blender needs. Nothing older than 4.5 LTS is supported (4.2 LTS is past its
//! support and nothing tests it).

use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlenderLine {
    /// Blender 4.5 LTS: `bpy==4.5.15` on Python 3.11.
    Lts45,
    /// Blender 5.2 LTS: `bpy==5.2.4` on Python 3.13. The default.
    Lts52,
}

impl BlenderLine {
    /// The newest LTS: what `capstan blender provision` installs without `--version`.
    pub const DEFAULT: BlenderLine = BlenderLine::Lts52;
    /// Every supported line, the default first.
    pub const ALL: [BlenderLine; 2] = [BlenderLine::Lts52, BlenderLine::Lts45];

    /// `major.minor` of the line, as users name it (`4.5`, `5.2`).
    pub fn label(self) -> &'static str {
        match self {
            BlenderLine::Lts45 => "4.5",
            BlenderLine::Lts52 => "5.2",
        }
    }

    /// The pinned PyPI `bpy` release.
    pub fn bpy_version(self) -> &'static str {
        match self {
            BlenderLine::Lts45 => "4.5.15",
            BlenderLine::Lts52 => "5.2.4",
        }
    }

    /// The CPython `major.minor` that release's wheels are built for.
    pub fn python_minor(self) -> &'static str {
        match self {
            BlenderLine::Lts45 => "3.11",
            BlenderLine::Lts52 => "3.13",
        }
    }

    /// The line a Blender version belongs to (`4.5.3` and `4.5` are 4.5 LTS); None for a
    /// version of no supported line.
    pub fn of_version(version: &str) -> Option<BlenderLine> {
        let mut parts = version.trim().split('.');
        let (major, minor) = (parts.next()?, parts.next().unwrap_or(""));
        if parts.any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit())) {
            return None;
        }
        BlenderLine::ALL.into_iter().find(|line| {
            let (m, n) = line.label().split_once('.').expect("labels are major.minor");
            major == m && minor == n
        })
    }
}

impl fmt::Display for BlenderLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} LTS", self.label())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{given:?} is not a Blender line capstan provisions; choose 4.5 or 5.2 (the LTS lines it tests)")]
pub struct UnknownLine {
    pub given: String,
}

impl FromStr for BlenderLine {
    type Err = UnknownLine;

    /// `4.5`, `5.2`, a full version of either (`4.5.15`), with an optional ` LTS` or
    /// `-lts` suffix.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let trimmed = text.trim();
        let lower = trimmed.to_ascii_lowercase();
        let bare = lower.strip_suffix("lts").map(|s| s.trim_end_matches([' ', '-'])).unwrap_or(&lower);
        BlenderLine::of_version(bare).ok_or_else(|| UnknownLine { given: trimmed.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_from_their_names_and_versions() {
        for (text, line) in [
            ("4.5", BlenderLine::Lts45),
            ("5.2", BlenderLine::Lts52),
            (" 5.2 ", BlenderLine::Lts52),
            ("4.5.15", BlenderLine::Lts45),
            ("5.2.4", BlenderLine::Lts52),
            ("4.5 LTS", BlenderLine::Lts45),
            ("5.2-lts", BlenderLine::Lts52),
        ] {
            assert_eq!(text.parse::<BlenderLine>(), Ok(line), "{text}");
        }
    }

    #[test]
    fn other_versions_are_refused_with_the_choices() {
        for bad in ["", "4.2", "5.0", "5.1", "4", "45", "4.50", "4.5.", "4.5.x", "latest", "lts", "v5.2", "5.2.4.beta"] {
            let err = bad.parse::<BlenderLine>().unwrap_err();
            assert_eq!(err.given, bad.trim());
            assert!(err.to_string().contains("choose 4.5 or 5.2"), "{err}");
        }
    }

    #[test]
    fn each_line_pins_bpy_and_its_python() {
        assert_eq!((BlenderLine::Lts45.bpy_version(), BlenderLine::Lts45.python_minor()), ("4.5.15", "3.11"));
        assert_eq!((BlenderLine::Lts52.bpy_version(), BlenderLine::Lts52.python_minor()), ("5.2.4", "3.13"));
        assert_eq!(BlenderLine::DEFAULT, BlenderLine::Lts52);
        assert_eq!(BlenderLine::ALL[0], BlenderLine::DEFAULT);
        for line in BlenderLine::ALL {
            // The pinned release belongs to its own line.
            assert_eq!(BlenderLine::of_version(line.bpy_version()), Some(line));
        }
        assert_eq!(BlenderLine::Lts45.to_string(), "4.5 LTS");
    }

    #[test]
    fn installed_versions_map_to_their_line() {
        assert_eq!(BlenderLine::of_version("4.5.3"), Some(BlenderLine::Lts45));
        assert_eq!(BlenderLine::of_version("5.2.0"), Some(BlenderLine::Lts52));
        assert_eq!(BlenderLine::of_version("5.0.1"), None);
        assert_eq!(BlenderLine::of_version("4.2.9"), None);
        assert_eq!(BlenderLine::of_version("5.20"), None);
    }
}
