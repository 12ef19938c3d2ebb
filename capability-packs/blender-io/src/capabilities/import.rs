use crate::paths;
use capstan_blender::{ImportFile, ImportFileParams, ImportFileParamsFormat as Format, import_file};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportArgs {
    /// The file: an absolute path under a read root (CAPSTAN_READ_ROOTS), or the bare file
    /// name of a file in the session output folder (an export of this session).
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// fbx, obj, glb, gltf, stl, ply, svg, abc, usd, usda, usdc or usdz; inferred from the
    /// extension when absent.
    pub format: Option<Format>,
    /// Uniform scale applied to the imported top-level objects (default 1).
    #[schemars(range(min = 0.0001, max = 1000.0))]
    pub scale: Option<f64>,
    /// Load it with every file reference outside the read roots or the output folder
    /// detached (listed in the answer's `detached`); false or absent: such a file is
    /// refused with a message naming each reference.
    #[serde(default)]
    pub detach_outside_references: bool,
}

/// Import a local 3D file (FBX, OBJ, glTF/GLB, STL, PLY, SVG, Alembic, USD) into the scene.
///
/// Reads only from the read roots; answers the names of the new objects. A format the
/// running Blender cannot read answers `unsupported`.
#[capability(
    key = "io.import",
    family = "io",
    tags = ["import", "file", "fbx", "obj", "gltf", "glb", "stl", "ply", "svg", "alembic", "usd", "model"],
    aliases = ["import_file", "import_obj", "import_fbx", "import_glb", "import_gltf", "import_stl", "import_model", "load_model"],
    examples = ["import chair.glb", "bring in the fbx model from my assets folder", "load the stl file scaled down to millimetres"],
    uses = [ImportFile],
    cases = cases,
)]
fn import(args: ImportArgs) -> PackResult<Value> {
    paths::input(&args.path)?;
    let out = import_file(&ImportFileParams { path: args.path.clone(), format: args.format, scale: args.scale, detach_outside_references: args.detach_outside_references.then_some(true) })?;
    if out.new_objects.is_empty() {
        // The declared postcondition of io.import: at least one object arrives.
        return Err(PackError::failed(format!("{} holds no object Blender could import", out.path)));
    }
    Ok(json!(out))
}

fn cases() -> Vec<Case> {
    // Round trips through the session output folder: export, start an empty file, import.
    let trip = |fmt: &str, added: &[&str]| {
        Case::new(&format!("a {fmt} round trip keeps names"))
            .setup("scene.create_object", json!({ "type": "uv_sphere", "name": "Ball", "location": [2, 0, 0] }))
            .setup("io.export", json!({ "filename": format!("trip.{fmt}"), "format": fmt, "objects": ["Ball", "Cube"] }))
            .setup("io.open", json!({ "empty": true }))
            .args(json!({ "path": format!("trip.{fmt}") }))
            .added(added).removed(&[]).changed(&[])
    };
    vec![
        trip("glb", &["Ball", "Cube"])
            .result(json!({ "format": "glb", "new_objects": ["Ball", "Cube"] }))
            .reads("scene.object_info", json!({ "name": "Ball" }), json!({ "mesh": { "vertices": 482 } }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "mesh": { "vertices": 8 } })),
        trip("obj", &["Ball", "Cube"])
            .result(json!({ "format": "obj", "new_objects": ["Ball", "Cube"] }))
            .reads("scene.object_info", json!({ "name": "Ball" }), json!({ "mesh": { "vertices": 482 } })),
        trip("stl", &["trip"]).result(json!({ "format": "stl", "new_objects": ["trip"] })),
        Case::new("scaled on import")
            .setup("io.export", json!({ "filename": "scaled.obj", "format": "obj", "objects": ["Cube"] }))
            .setup("io.open", json!({ "empty": true }))
            .args(json!({ "path": "scaled.obj", "scale": 0.5 }))
            .added(&["Cube"])
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "dimensions": [1.0, 1.0, 1.0] })),
        Case::new("a path outside the read roots").args(json!({ "path": "/etc/model.obj" })).error("path_refused"),
        Case::new("a relative path").args(json!({ "path": "models/chair.glb" })).error("path_refused"),
        Case::new("a path that climbs out").args(json!({ "path": "/tmp/../etc/x.glb" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("not a 3D file").args(json!({ "path": "notes.txt" })).error("path_refused"),
        Case::new("no such file").args(json!({ "path": "absent.glb" })).error("not_found"),
        Case::new("an unknown format").args(json!({ "path": "x.glb", "format": "blend" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
