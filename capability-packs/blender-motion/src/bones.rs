//! Bone lists checked before they reach Blender: unique names, parents that exist,
//! no cycles, no zero-length bones (Blender silently deletes those).

use capstan_sdk::prelude::*;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoneSpec {
    /// Bone name.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: String,
    /// Head [x, y, z], metres in armature space.
    pub head: [f64; 3],
    /// Tail [x, y, z], metres in armature space.
    pub tail: [f64; 3],
    /// Parent bone (earlier or later in the list).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub parent: Option<String>,
    /// Head joined to the parent's tail.
    #[serde(default)]
    pub connected: bool,
    /// Roll about the bone's axis, degrees.
    #[schemars(range(min = -360.0, max = 360.0))]
    pub roll: Option<f64>,
}

pub fn length(head: [f64; 3], tail: [f64; 3]) -> f64 {
    ((tail[0] - head[0]).powi(2) + (tail[1] - head[1]).powi(2) + (tail[2] - head[2]).powi(2)).sqrt()
}

pub fn check(bones: &[BoneSpec]) -> PackResult<()> {
    let mut parents = BTreeMap::new();
    for b in bones {
        if parents.insert(b.name.as_str(), b.parent.as_deref()).is_some() {
            return Err(PackError::invalid(format!("bone {:?} appears twice", b.name)));
        }
        if length(b.head, b.tail) < 1e-6 {
            return Err(PackError::invalid(format!("bone {:?} has zero length (head = tail)", b.name)));
        }
        if b.connected && b.parent.is_none() {
            return Err(PackError::invalid(format!("bone {:?} is connected but has no parent", b.name)));
        }
    }
    for b in bones {
        if let Some(p) = &b.parent
            && !parents.contains_key(p.as_str())
        {
            return Err(PackError::invalid(format!("bone {:?} has parent {p:?}, which is not in the list", b.name)));
        }
        let (mut cur, mut steps) = (Some(b.name.as_str()), 0);
        while let Some(name) = cur {
            steps += 1;
            if steps > bones.len() {
                return Err(PackError::invalid(format!("the parents of {:?} make a cycle", b.name)));
            }
            cur = parents[name];
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn bones(v: serde_json::Value) -> Vec<BoneSpec> {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn chains_pass_and_bad_lists_are_refused() {
        assert!(check(&bones(json!([{ "name": "A", "head": [0, 0, 0], "tail": [0, 0, 1] }, { "name": "B", "head": [0, 0, 1], "tail": [0, 0, 2], "parent": "A", "connected": true }]))).is_ok());
        assert!(check(&bones(json!([{ "name": "A", "head": [0, 0, 0], "tail": [0, 0, 0] }]))).is_err());
        assert!(check(&bones(json!([{ "name": "A", "head": [0, 0, 0], "tail": [0, 0, 1] }, { "name": "A", "head": [0, 0, 1], "tail": [0, 0, 2] }]))).is_err());
        assert!(check(&bones(json!([{ "name": "A", "head": [0, 0, 0], "tail": [0, 0, 1], "parent": "B" }, { "name": "B", "head": [0, 0, 1], "tail": [0, 0, 2], "parent": "A" }]))).is_err());
        assert!(check(&bones(json!([{ "name": "A", "head": [0, 0, 0], "tail": [0, 0, 1], "parent": "Ghost" }]))).is_err());
    }
}
