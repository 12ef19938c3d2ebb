//! The checker's policy: data passed with every check (allowed top-level modules,
//! extra denied names). The default is `capability-packs/python-safety/policy.json`,
//! embedded at build time; `--policy FILE` replaces it.

use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckerPolicy {
    pub allowed_modules: Vec<String>,
    #[serde(default)]
    pub denied_names: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("cannot read the policy {path}: {detail}")]
    Unreadable { path: String, detail: String },
    #[error("the policy {path} is invalid: {detail}")]
    Invalid { path: String, detail: String },
}

impl Default for CheckerPolicy {
    fn default() -> Self {
        serde_json::from_str(super::embedded::DEFAULT_POLICY).expect("the embedded default policy is valid")
    }
}

impl CheckerPolicy {
    pub fn load(path: &Path) -> Result<Self, PolicyError> {
        let shown = path.display().to_string();
        let text = crate::fsutil::read_capped(path, crate::limits::MAX_MANIFEST_BYTES).map_err(|e| PolicyError::Unreadable { path: shown.clone(), detail: e.to_string() })?;
        let policy: CheckerPolicy = serde_json::from_str(&text).map_err(|e| PolicyError::Invalid { path: shown.clone(), detail: e.to_string() })?;
        let bad = |n: &String| n.is_empty() || n.contains(['.', ' ']) ;
        if let Some(m) = policy.allowed_modules.iter().find(|m| bad(m)) {
            return Err(PolicyError::Invalid { path: shown, detail: format!("allowed_modules: {m:?} is not a top-level module name") });
        }
        Ok(policy)
    }

    pub fn to_wit(&self) -> super::bindings::Policy {
        super::bindings::Policy { allowed_modules: self.allowed_modules.clone(), denied_names: self.denied_names.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_allows_the_app_modules_and_pure_helpers_only() {
        let p = CheckerPolicy::default();
        for m in ["bpy", "bmesh", "mathutils", "math", "random", "json", "colorsys", "itertools", "functools", "collections"] {
            assert!(p.allowed_modules.iter().any(|x| x == m), "{m}");
        }
        for m in ["os", "sys", "subprocess", "importlib", "builtins", "ctypes", "socket"] {
            assert!(!p.allowed_modules.iter().any(|x| x == m), "{m}");
        }
    }

    #[test]
    fn a_policy_file_is_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.json");
        std::fs::write(&path, r#"{"allowed_modules": ["bpy"], "denied_names": ["hack"]}"#).unwrap();
        assert_eq!(CheckerPolicy::load(&path).unwrap().denied_names, ["hack"]);
        std::fs::write(&path, r#"{"allowed_modules": ["os.path"]}"#).unwrap();
        assert!(matches!(CheckerPolicy::load(&path), Err(PolicyError::Invalid { .. })));
        std::fs::write(&path, r#"{"allowed": []}"#).unwrap();
        assert!(matches!(CheckerPolicy::load(&path), Err(PolicyError::Invalid { .. })));
    }
}
