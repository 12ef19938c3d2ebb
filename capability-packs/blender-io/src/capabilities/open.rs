use crate::paths;
use capstan_blender::{NewFile, NewFileParams, OpenBlend, OpenBlendParams, new_file, open_blend};
use capstan_sdk::prelude::*;

/// A file to open or a new one, said in the schema.
fn path_or_new(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::require_any(schema, &["path", "empty"]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = path_or_new)]
pub struct OpenArgs {
    /// A .blend to open: an absolute path under a read root, or the bare file name of a
    /// .blend saved in the session output folder. Its Python scripts never run.
    #[schemars(length(min = 1, max = 1024))]
    pub path: Option<String>,
    /// Without a path: start a new file, empty (true) or Blender's factory scene (false).
    pub empty: Option<bool>,
    /// Load it with every file reference outside the read roots or the output folder
    /// detached (listed in the answer's `detached`); false or absent: such a file is
    /// refused with a message naming each reference.
    #[serde(default)]
    pub detach_outside_references: bool,
}

/// Replace the session scene with a .blend file, or start a new (empty) file.
///
/// Destructive: everything unsaved in the session scene is gone afterwards (save it with
/// io.save first).
#[capability(
    key = "io.open",
    family = "io",
    tags = ["open", "new file", "blend file", "empty scene", "start over", "load"],
    aliases = ["open_blend", "open_file", "new_file", "system_new_file", "load_blend"],
    examples = ["open the saved blend file", "start a new empty file", "start over from a blank scene"],
    uses = [OpenBlend, NewFile],
    cases = cases,
)]
fn open(args: OpenArgs) -> PackResult<Value> {
    let detach = args.detach_outside_references.then_some(true);
    match (args.path, args.empty) {
        (Some(_), Some(_)) => Err(PackError::invalid("give path or empty, not both")),
        (Some(path), None) => {
            paths::input(&path)?;
            Ok(json!(open_blend(&OpenBlendParams { path, detach_outside_references: detach })?))
        }
        (None, Some(empty)) => Ok(json!(new_file(&NewFileParams { empty: Some(empty) })?)),
        (None, None) => Err(PackError::invalid("give path (a .blend) or empty (a new file)")),
    }
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("an empty file").args(json!({ "empty": true }))
            .removed(&["Camera", "Cube", "Light"]).added(&[])
            .result(json!({ "empty": true, "objects": [] }))
            .reads("scene.info", json!({}), json!({ "object_count": 0 })),
        Case::new("the factory scene")
            .setup("scene.delete_object", json!({ "name": "Cube" }))
            .args(json!({ "empty": false }))
            .added(&["Cube"])
            .result(json!({ "objects": ["Camera", "Cube", "Light"] })),
        Case::new("a saved file replaces the scene")
            .setup("scene.create_object", json!({ "type": "cone", "name": "Spire" }))
            .setup("io.save", json!({ "filename": "spire.blend" }))
            .setup("io.open", json!({ "empty": true }))
            .args(json!({ "path": "spire.blend" }))
            .added(&["Camera", "Cube", "Light", "Spire"]).removed(&[])
            .reads("scene.object_info", json!({ "name": "Spire" }), json!({ "type": "MESH" })),
        Case::new("a path outside the read roots").args(json!({ "path": "/etc/scene.blend" })).error("path_refused"),
        Case::new("not a .blend").args(json!({ "path": "scene.glb" })).error("path_refused"),
        Case::new("no such file").args(json!({ "path": "absent.blend" })).error("not_found"),
        Case::new("both a path and empty").args(json!({ "path": "spire.blend", "empty": true })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("neither").args(json!({})).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
