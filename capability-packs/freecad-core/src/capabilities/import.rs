use crate::files;
use capstan_freecad::{ImportCad, ImportCadParams, import_cad};
use capstan_sdk::prelude::*;

fn cad_extension(schema: &mut schemars::Schema) {
    let rule = json!({ "properties": { "path": { "pattern": files::extension_pattern(files::CAD_INPUTS) } } });
    capstan_sdk::schema_rules::add_rule(schema, rule);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = cad_extension)]
pub struct ImportArgs {
    /// The STEP (.step, .stp) or IGES (.iges, .igs) file: an absolute path under a read
    /// root (CAPSTAN_READ_ROOTS), or the bare name of a file in the session output
    /// folder (an export of this session).
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// The new object's name (default: from the file's name).
    #[schemars(length(min = 1, max = 63))]
    pub name: Option<String>,
}

/// Import a STEP or IGES part from the read roots into the FreeCAD document as one solid.
///
/// The whole file becomes one new object (IGES faces that close are sewn back into a
/// solid). The answer names it and gives its volume in mm^3 and its number of solids.
/// A path outside the read roots and the output folder is refused (`path_refused`).
#[capability(
    key = "cad.import",
    family = "cad",
    tags = ["cad", "freecad", "import", "step", "stp", "iges", "igs", "part", "file"],
    aliases = ["freecad_import", "import_step", "import_iges", "open_step"],
    examples = ["open the bracket step file in freecad", "bring the supplier's iges part into cad", "load /srv/parts/housing.stp"],
    uses = [ImportCad],
    cases = cases,
)]
fn import(args: ImportArgs) -> PackResult<Value> {
    files::cad_input(&args.path)?;
    let out = import_cad(&ImportCadParams { path: args.path, name: args.name })?;
    if out.new_objects.is_empty() {
        return Err(PackError::failed(format!("{} holds no shape FreeCAD could import", out.path)));
    }
    Ok(json!(out))
}

fn cases() -> Vec<Case> {
    // Round trips through the session output folder: make, export, start afresh, import.
    let exported = |name: &str, file: &str| {
        Case::new(name)
            .setup("cad.primitive", json!({ "kind": "box", "length": 10, "width": 20, "height": 30 }))
            .setup("cad.primitive", json!({ "kind": "cylinder", "radius": 2, "height": 30, "position": [5, 10, 0] }))
            .setup("cad.boolean", json!({ "operation": "cut", "base": "Box", "tool": "Cylinder" }))
            .setup("cad.export", json!({ "file_name": file, "format": "step", "objects": ["Cut"] }))
    };
    vec![
        exported("a STEP export imports with the same volume", "part.step")
            .args(json!({ "path": "part.step" }))
            .added(&["part"])
            .result(json!({ "format": "step", "new_objects": ["part"], "volume_mm3": 5623.008881569224, "solids": 1 }))
            .reads("cad.measure", json!({ "objects": ["part"] }), json!({ "objects": [{ "valid": true, "faces": 7, "bounds_mm": { "size": [10.0, 20.0, 30.0] } }] })),
        exported("named on import, .stp", "part.stp")
            .args(json!({ "path": "part.stp", "name": "Bracket" }))
            .added(&["Bracket"])
            .result(json!({ "new_objects": ["Bracket"], "volume_mm3": 5623.008881569224 })),
        Case::new("a path outside the read roots").args(json!({ "path": "/etc/part.step" })).error("path_refused"),
        Case::new("a path that climbs out").args(json!({ "path": "/tmp/../etc/part.step" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a relative path").args(json!({ "path": "parts/part.step" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("not a CAD file").args(json!({ "path": "notes.txt" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("no such file").args(json!({ "path": "absent.step" })).error("not_found"),
    ]
}
