//! Dotted numeric versions as apps report them (`4.2`, `5.0.1`, `4.10`,
//! `4.5.3.0` from a Windows file version), compared numerically part by part.
//!
//! The first three parts are compared as a semantic version (the `semver` crate) and
//! missing parts count as 0, so `5.0` == `5.0.0` and `4.10` > `4.9`; a fourth part, as
//! Windows file versions have, breaks ties.

use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;

/// Equality is numeric, like the ordering: `5.0` == `5.0.0` == `5.0.0.0`.
#[derive(Debug, Clone)]
pub struct DottedVersion {
    core: semver::Version,
    /// Parts after the third (Windows file versions have four).
    tail: Vec<u64>,
    text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a dotted numeric version (like 4.2 or 5.0.1)")]
pub struct VersionError {
    pub text: String,
}

impl DottedVersion {
    pub fn parse(text: &str) -> Result<Self, VersionError> {
        let error = || VersionError { text: text.chars().take(64).collect() };
        let parts: Vec<u64> = text
            .split('.')
            .map(|p| if !p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit()) { p.parse().ok() } else { None })
            .collect::<Option<_>>()
            .ok_or_else(error)?;
        if parts.is_empty() || parts.len() > 4 {
            return Err(error());
        }
        let at = |i: usize| parts.get(i).copied().unwrap_or(0);
        Ok(DottedVersion { core: semver::Version::new(at(0), at(1), at(2)), tail: parts[3.min(parts.len())..].to_vec(), text: text.to_string() })
    }

    /// The first dotted version (at least two parts) in free text, such as the first
    /// line of `blender --version` ("Blender 4.5.3 LTS").
    pub fn find_in(text: &str) -> Option<Self> {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_digit() && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'.')) {
                let end = (i..bytes.len()).find(|&j| !(bytes[j].is_ascii_digit() || bytes[j] == b'.')).unwrap_or(bytes.len());
                let candidate = text[i..end].trim_end_matches('.');
                if candidate.contains('.')
                    && let Ok(v) = Self::parse(candidate)
                {
                    return Some(v);
                }
                i = end;
            } else {
                i += 1;
            }
        }
        None
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl Ord for DottedVersion {
    fn cmp(&self, other: &Self) -> Ordering {
        self.core.cmp(&other.core).then_with(|| {
            let len = self.tail.len().max(other.tail.len());
            (0..len).map(|i| self.tail.get(i).unwrap_or(&0).cmp(other.tail.get(i).unwrap_or(&0))).find(|o| o.is_ne()).unwrap_or(Ordering::Equal)
        })
    }
}

impl PartialEq for DottedVersion {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for DottedVersion {}

impl PartialOrd for DottedVersion {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for DottedVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for DottedVersion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> DottedVersion {
        DottedVersion::parse(s).unwrap()
    }

    #[test]
    fn versions_compare_numerically_part_by_part() {
        assert!(v("5.1") > v("5.0.1"));
        assert!(v("5.0.1") > v("4.10"));
        assert!(v("4.10") > v("4.9"));
        assert!(v("4.2") < v("4.2.1"));
        assert_eq!(v("5.0").cmp(&v("5.0.0")), Ordering::Equal);
        assert!(v("4.5.3.1") > v("4.5.3"));
        assert!(v("4") < v("4.0.1"));
    }

    #[test]
    fn non_numeric_versions_are_refused() {
        for bad in ["", "4.x", "v4.2", "4..2", "4.2.", "-1", "4.2-beta", "1.2.3.4.5", "4 .2", "1234567890"] {
            assert!(DottedVersion::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_first_dotted_version_in_output_is_found() {
        assert_eq!(DottedVersion::find_in("Sculptor 4.5.3 LTS\n\tbuild date: 2025-09-01").unwrap().as_str(), "4.5.3");
        assert_eq!(DottedVersion::find_in("Sculptor 5.0.1 (hash 1234abcd built 2025-11-18)").unwrap().as_str(), "5.0.1");
        assert_eq!(DottedVersion::find_in("version 3.4.1.").unwrap().as_str(), "3.4.1");
        assert_eq!(DottedVersion::find_in("x86_64 build 42 of 5.0"), Some(v("5.0")));
        assert_eq!(DottedVersion::find_in("no version here, just 42"), None);
        assert_eq!(DottedVersion::find_in("Sculptor"), None);
    }
}
