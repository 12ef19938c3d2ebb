use crate::paths;
use capstan_blender::{ExportFile, ExportFileParams, ExportFileParamsFormat as Format, export_file};
use capstan_sdk::prelude::*;

/// The file name's extension follows the format (any letter case), said in the schema.
fn extension_follows_format(schema: &mut schemars::Schema) {
    for format in [Format::Glb, Format::Gltf, Format::Fbx, Format::Obj, Format::Stl, Format::Ply, Format::Abc, Format::Usd] {
        let ext = extension(format);
        let any_case: String = ext.chars().map(|c| format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())).collect();
        let rule = json!({
            "if": { "properties": { "format": { "const": ext } }, "required": ["format"] },
            "then": { "properties": { "filename": { "pattern": format!(r"\.{any_case}$") } } },
        });
        capstan_sdk::schema_rules::add_rule(schema, rule);
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = extension_follows_format)]
pub struct ExportArgs {
    /// A bare file name, written to the session output folder; its extension must match the format.
    #[schemars(length(min = 1, max = 128), regex(pattern = r"^[A-Za-z0-9_. -]{1,128}$"))]
    pub filename: String,
    /// glb, gltf (with its .bin beside it), fbx, obj, stl, ply, abc or usd.
    pub format: Format,
    /// Export only these objects (default: the whole scene).
    #[schemars(length(min = 1, max = 1000), inner(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$")))]
    pub objects: Option<Vec<String>>,
    /// Export only the selected objects (not with `objects`).
    #[serde(default)]
    pub selected_only: bool,
    /// Export the evaluated meshes, modifiers applied (default true).
    #[serde(default = "yes")]
    pub apply_modifiers: bool,
    /// Include materials (default true; glb, gltf, obj, usd).
    #[serde(default = "yes")]
    pub export_materials: bool,
    /// Include animation (default false; glb, gltf, fbx, abc, usd; obj, stl and ply hold none).
    #[serde(default)]
    pub export_animation: bool,
}

fn yes() -> bool {
    true
}

fn extension(format: Format) -> &'static str {
    match format {
        Format::Glb => "glb",
        Format::Gltf => "gltf",
        Format::Fbx => "fbx",
        Format::Obj => "obj",
        Format::Stl => "stl",
        Format::Ply => "ply",
        Format::Abc => "abc",
        Format::Usd => "usd",
    }
}

/// Export the scene or some objects to a file in the session output folder (glTF, FBX, OBJ, STL, PLY, Alembic, USD).
///
/// Writes a file only; the scene is unchanged. A format the running Blender cannot
/// write answers `unsupported`.
#[capability(
    key = "io.export",
    family = "io",
    tags = ["export", "file", "gltf", "glb", "fbx", "obj", "stl", "ply", "alembic", "usd", "3d print", "game engine"],
    aliases = ["export_file", "export_glb", "export_gltf", "export_fbx", "export_obj", "export_stl", "export_model"],
    examples = ["export the scene as a glb", "export the chair to chair.fbx", "save an stl of the part for 3d printing"],
    uses = [ExportFile],
    cases = cases,
)]
fn export(args: ExportArgs) -> PackResult<Value> {
    paths::output(&args.filename, extension(args.format))?;
    if args.objects.is_some() && args.selected_only {
        return Err(PackError::invalid("give objects or selected_only, not both"));
    }
    Ok(json!(export_file(&ExportFileParams {
        filename: args.filename,
        format: args.format,
        objects: args.objects,
        selected_only: Some(args.selected_only),
        apply_modifiers: Some(args.apply_modifiers),
        export_materials: Some(args.export_materials),
        export_animation: Some(args.export_animation),
    })?))
}

fn cases() -> Vec<Case> {
    let file = |fmt: &str| {
        Case::new(&format!("the cube as {fmt}"))
            .args(json!({ "filename": format!("cube.{fmt}"), "format": fmt, "objects": ["Cube"] }))
            .result(json!({ "filename": format!("cube.{fmt}"), "format": fmt, "objects": ["Cube"] }))
    };
    vec![
        file("glb"),
        file("obj"),
        file("stl"),
        file("ply"),
        file("fbx"),
        Case::new("the whole scene as gltf").args(json!({ "filename": "scene.gltf", "format": "gltf" }))
            .result(json!({ "objects": ["Camera", "Cube", "Light"] })),
        Case::new("an object made just before is exported")
            .setup("scene.create_object", json!({ "type": "monkey", "name": "Suzanne" }))
            .args(json!({ "filename": "scene.glb", "format": "glb" }))
            .result(json!({ "objects": ["Camera", "Cube", "Light", "Suzanne"] })),
        Case::new("a path instead of a file name").args(json!({ "filename": "/tmp/x.glb", "format": "glb" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an extension that is not the format").args(json!({ "filename": "x.obj", "format": "glb" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a missing object").args(json!({ "filename": "x.glb", "format": "glb", "objects": ["Ghost"] })).error("not_found"),
        Case::new("animation in an stl").args(json!({ "filename": "x.stl", "format": "stl", "export_animation": true })).error("unsupported"),
        Case::new("an unknown format").args(json!({ "filename": "x.dae", "format": "dae" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
