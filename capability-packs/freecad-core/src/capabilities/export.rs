use crate::files;
use capstan_freecad::{
    ExportCad, ExportCadParams, ExportCadParamsFormat as Format, ExportCadParamsQuality, ExportCadParamsQualityObject, ExportCadParamsQualityString as Preset,
    export_cad,
};
use capstan_sdk::prelude::*;

/// The file name's extension follows the format (any letter case), said in the schema.
fn extension_follows_format(schema: &mut schemars::Schema) {
    for (format, value) in [(Format::Step, "step"), (Format::Stl, "stl"), (Format::Obj, "obj")] {
        let pattern = files::extension_pattern(files::extensions(format));
        let rule = json!({
            "if": { "properties": { "format": { "const": value } }, "required": ["format"] },
            "then": { "properties": { "file_name": { "pattern": pattern } } },
        });
        capstan_sdk::schema_rules::add_rule(schema, rule);
    }
}

/// How finely STL and OBJ follow curved surfaces.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Quality {
    /// coarse: 1 mm / 30 degrees; normal: 0.1 mm / 15 degrees; fine: 0.01 mm / 5 degrees.
    Preset(Preset),
    /// Deflections of your own.
    Deflections(Deflections),
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deflections {
    /// The largest distance between the mesh and the true surface, mm.
    #[schemars(range(min = 0.001, max = 100.0))]
    pub linear_deflection_mm: f64,
    /// The largest angle between neighbouring facets, degrees.
    #[schemars(range(min = 0.5, max = 90.0))]
    pub angular_deflection_deg: f64,
}

impl Quality {
    fn to_bridge(&self) -> ExportCadParamsQuality {
        match self {
            Quality::Preset(p) => ExportCadParamsQuality::String(*p),
            Quality::Deflections(d) => ExportCadParamsQuality::Object(ExportCadParamsQualityObject {
                linear_deflection_mm: d.linear_deflection_mm,
                angular_deflection_deg: d.angular_deflection_deg,
            }),
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = extension_follows_format)]
pub struct ExportArgs {
    /// A bare file name, written to the session output folder; its extension is the
    /// format's (.step or .stp, .stl, .obj).
    #[schemars(length(min = 1, max = 128), regex(pattern = r"^[A-Za-z0-9_ -][A-Za-z0-9_. -]{0,127}$"))]
    pub file_name: String,
    /// step (exact solids, for CAD), stl (a triangle mesh, for 3D printing) or obj (a
    /// triangle mesh, for 3D apps such as Blender).
    pub format: Format,
    /// The objects to export (exact names; default: every visible object with a shape).
    #[schemars(length(min = 1, max = 256), inner(length(min = 1, max = 63)))]
    pub objects: Option<Vec<String>>,
    /// Tessellation of STL and OBJ: "coarse", "normal" (the default), "fine", or
    /// {"linear_deflection_mm", "angular_deflection_deg"}. Not for STEP.
    pub quality: Option<Quality>,
}

/// Export FreeCAD solids to a STEP, STL or OBJ file in the session output folder.
///
/// STEP keeps the exact solids; STL and OBJ are triangle meshes, as fine as the
/// tessellation quality asks (the answer gives the triangle count and the deflections
/// used). Writes a file only; the document is unchanged. Import the file in another
/// app from the output folder, or back with cad.import.
#[capability(
    key = "cad.export",
    family = "cad",
    tags = ["cad", "freecad", "export", "step", "stp", "stl", "obj", "mesh", "tessellation", "3d print", "file"],
    aliases = ["freecad_export", "export_step", "cad_export_stl"],
    examples = ["save the freecad part as a step file", "export the cad bracket to stl with fine tessellation", "write an obj of the solid for blender, coarse mesh"],
    uses = [ExportCad],
    cases = cases,
)]
fn export(args: ExportArgs) -> PackResult<Value> {
    files::output_name(&args.file_name, args.format)?;
    if args.format == Format::Step && args.quality.is_some() {
        return Err(PackError::invalid("quality is the tessellation of STL and OBJ; a STEP file keeps the exact solids"));
    }
    let out = export_cad(&ExportCadParams {
        file_name: args.file_name.clone(),
        format: args.format,
        objects: args.objects,
        quality: args.quality.as_ref().map(Quality::to_bridge),
    })?;
    let mut answer = json!(out);
    answer["file_name"] = json!(args.file_name);
    Ok(answer)
}

fn cases() -> Vec<Case> {
    let ball = |name: &str| Case::new(name).setup("cad.primitive", json!({ "kind": "sphere", "radius": 10, "name": "Ball" }));
    let mesh = |quality: Value| json!({ "file_name": "ball.stl", "format": "stl", "quality": quality });
    vec![
        ball("a STEP file of the visible solids")
            .args(json!({ "file_name": "ball.step", "format": "step" }))
            .result(json!({ "file_name": "ball.step", "format": "step", "objects": ["Ball"] })),
        // Coarse and fine STL of one sphere: the fine mesh has many more triangles
        // (counts from FreeCAD 0.20's mesher).
        ball("a coarse STL").args(mesh(json!("coarse"))).result(json!({ "format": "stl", "triangles": 302, "linear_deflection_mm": 1.0, "angular_deflection_deg": 30.0 })),
        ball("a fine STL").args(mesh(json!("fine"))).result(json!({ "format": "stl", "triangles": 10598, "linear_deflection_mm": 0.01, "angular_deflection_deg": 5.0 })),
        ball("an OBJ with deflections of its own")
            .args(json!({ "file_name": "ball.obj", "format": "obj", "objects": ["Ball"], "quality": { "linear_deflection_mm": 0.5, "angular_deflection_deg": 20 } }))
            .result(json!({ "format": "obj", "triangles": 646, "linear_deflection_mm": 0.5, "angular_deflection_deg": 20.0 })),
        ball("the default quality is normal").args(json!({ "file_name": "ball.stl", "format": "stl" })).result(json!({ "linear_deflection_mm": 0.1, "angular_deflection_deg": 15.0 })),
        Case::new("nothing to export").args(json!({ "file_name": "empty.step", "format": "step" })).error("not_found"),
        ball("a missing object").args(json!({ "file_name": "x.stl", "format": "stl", "objects": ["Ghost"] })).error("not_found"),
        Case::new("a path instead of a file name").args(json!({ "file_name": "/tmp/x.stl", "format": "stl" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an extension that is not the format").args(json!({ "file_name": "x.stl", "format": "step" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a tessellation for STEP").args(json!({ "file_name": "x.step", "format": "step", "quality": "fine" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unknown format").args(json!({ "file_name": "x.iges", "format": "iges" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
