//! Roles: what a capability does for the host's own judgement, declared by the pack
//! that offers it (`pack.json`'s optional `roles`: role name -> capability key).
//!
//! The planner, the critic and `capstan eval` need to read the scene, measure spatial
//! constraints or take a picture, whatever application a pack drives. They ask for a
//! role and get the key a pack declared for it; the host names no capability of any
//! application. Each role is a contract on the capability's arguments and answer,
//! written at [`Role::contract`]; a pack declares a role only for a capability that
//! keeps it (the official packs' roles are exercised against real Blender by the
//! planner and eval tests, which measure through them).
//!
//! Security reasoning: a role only names a capability of the same pack, checked at
//! load; no role may name a destructive capability, and every role but
//! `renders-picture` and `transforms-object` (the planner's plain edits) must name one
//! that does not mutate, so the critic, which measures only through the reading roles,
//! cannot change what it judges (and the critic checks `mutates` again before each call).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    ListsObjects,
    ReadsObject,
    ReadsMaterials,
    MeasuresSpatial,
    PicturesScene,
    AuditsRender,
    RendersPicture,
    TransformsObject,
}

impl Role {
    pub const ALL: [Role; 8] = [
        Role::ListsObjects,
        Role::ReadsObject,
        Role::ReadsMaterials,
        Role::MeasuresSpatial,
        Role::PicturesScene,
        Role::AuditsRender,
        Role::RendersPicture,
        Role::TransformsObject,
    ];

    /// The name `pack.json` uses.
    pub fn name(self) -> &'static str {
        match self {
            Role::ListsObjects => "lists-objects",
            Role::ReadsObject => "reads-object",
            Role::ReadsMaterials => "reads-materials",
            Role::MeasuresSpatial => "measures-spatial",
            Role::PicturesScene => "pictures-scene",
            Role::AuditsRender => "audits-render",
            Role::RendersPicture => "renders-picture",
            Role::TransformsObject => "transforms-object",
        }
    }

    pub fn parse(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Whether the role's capability may change the scene: the final render and the
    /// planner's plain edits do; the critic never measures through either.
    pub fn may_mutate(self) -> bool {
        matches!(self, Role::RendersPicture | Role::TransformsObject)
    }

    /// The arguments the host sends and the answer it reads.
    pub fn contract(self) -> &'static str {
        match self {
            Role::ListsObjects => {
                r#"{"limit": n, "name"?: glob} -> {"objects": [{"name", "type"}], "render"?: {"resolution": [w, h]}}: the scene's objects (those matching the glob), and the final picture's size"#
            }
            Role::ReadsObject => r#"{"name"} -> {"name", "type", ...}: one object by exact name, its properties at dotted paths"#,
            Role::ReadsMaterials => r#"{"material"} -> {"materials": [{"name", ...}]}: materials, with that one among them"#,
            Role::MeasuresSpatial => r#"{"constraints": [...]} -> {"passed", "results": [one per constraint]}"#,
            Role::PicturesScene => r#"{"width", "height", "samples", "camera"?} -> a small PNG of the scene (an image result)"#,
            Role::AuditsRender => r#"{} -> the render settings, read only, before a final render"#,
            Role::RendersPicture => r#"{} -> {"path"}: the final picture, rendered to the output folder"#,
            Role::TransformsObject => {
                r#"{"name", "location"?, "rotation"? (degrees), "scale"?, "visible"?, "new_name"?} -> the object moved, turned, sized, shown or hidden, or renamed: the planner's plain edits of an object the scene has"#
            }
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_match_serde() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.name()), Some(role));
            assert_eq!(serde_json::to_value(role).unwrap(), role.name());
        }
        assert_eq!(Role::parse("renders"), None);
        assert_eq!(Role::ALL.iter().filter(|r| r.may_mutate()).count(), 2);
    }
}
