use capstan_freecad::{Boolean, BooleanParams, BooleanParamsOperation as Operation, boolean};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BooleanArgs {
    /// fuse (join into one solid), cut (base minus tool) or common (only what both share).
    pub operation: Operation,
    /// The solid to start from (exact object name).
    #[schemars(length(min = 1, max = 63))]
    pub base: String,
    /// The solid to fuse with, cut away or intersect with (exact object name).
    #[schemars(length(min = 1, max = 63))]
    pub tool: String,
    /// The result's name (default: Fuse, Cut or Common).
    #[schemars(length(min = 1, max = 63))]
    pub name: Option<String>,
    /// Leave base and tool visible (default false: they are hidden, as FreeCAD does).
    #[serde(default)]
    pub keep_inputs_visible: bool,
}

/// Combine two solids: fuse them, cut one from the other, or keep what they share.
///
/// The result is a new parametric FreeCAD feature built from the two inputs (which stay
/// in the document, hidden unless `keep_inputs_visible`); it follows them when they
/// change. The answer gives its volume in mm^3 and its number of solids. A result with
/// no volume (solids that do not touch, for `common`) is refused and changes nothing.
#[capability(
    key = "cad.boolean",
    family = "cad",
    tags = ["cad", "freecad", "boolean", "fuse", "union", "cut", "difference", "common", "intersection", "solid"],
    aliases = ["freecad_boolean", "cad_fuse", "cad_cut", "cad_common"],
    examples = ["drill the cad cylinder through the block", "fuse the two freecad solids into one part", "keep only the overlap of the parametric solids"],
    uses = [Boolean],
    cases = cases,
)]
fn combine(args: BooleanArgs) -> PackResult<Value> {
    if args.base == args.tool {
        return Err(PackError::invalid(format!("base and tool are both {:?}; name two different solids", args.base)));
    }
    let out = boolean(&BooleanParams {
        operation: args.operation,
        base: args.base,
        tool: args.tool,
        name: args.name,
        keep_inputs_visible: args.keep_inputs_visible.then_some(true),
    })?;
    Ok(json!(out))
}

fn cases() -> Vec<Case> {
    let block = json!({ "kind": "box", "length": 10, "width": 20, "height": 30 });
    let pin = json!({ "kind": "cylinder", "radius": 2, "height": 30, "position": [5, 10, 0] });
    let with_both = |name: &str| Case::new(name).setup("cad.primitive", block.clone()).setup("cad.primitive", pin.clone());
    vec![
        // 6000 mm^3 less the pin's 376.99 mm^3: the volume drops by exactly the hole.
        with_both("cutting a pin through a block drops its volume by the pin's")
            .args(json!({ "operation": "cut", "base": "Box", "tool": "Cylinder" }))
            .added(&["Cut"])
            .changed(&["Box", "Cylinder"])
            .fields("Box", &["visibility"])
            .result(json!({ "name": "Cut", "operation": "cut", "volume": 5623.008881569224, "solids": 1 }))
            .reads("cad.measure", json!({}), json!({ "total_volume_mm3": 5623.008881569224, "objects": [{ "name": "Cut", "faces": 7, "valid": true }] })),
        with_both("a fuse of a pin inside a block is the block")
            .args(json!({ "operation": "fuse", "base": "Box", "tool": "Cylinder", "name": "Part" }))
            .added(&["Part"])
            .result(json!({ "name": "Part", "volume": 6000.0, "solids": 1 })),
        with_both("the common of a pin inside a block is the pin, inputs left visible")
            .args(json!({ "operation": "common", "base": "Box", "tool": "Cylinder", "keep_inputs_visible": true }))
            .added(&["Common"])
            .changed(&[])
            .result(json!({ "volume": 376.99111843077515 })),
        Case::new("two solids that do not touch have nothing in common")
            .setup("cad.primitive", json!({ "kind": "sphere", "radius": 1 }))
            .setup("cad.primitive", json!({ "kind": "box", "length": 1, "width": 1, "height": 1, "position": [10, 10, 10] }))
            .args(json!({ "operation": "common", "base": "Sphere", "tool": "Box" }))
            .error("operation_failed"),
        Case::new("a solid with itself").setup("cad.primitive", block.clone()).args(json!({ "operation": "cut", "base": "Box", "tool": "Box" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a missing tool").setup("cad.primitive", block).args(json!({ "operation": "fuse", "base": "Box", "tool": "Ghost" })).error("not_found"),
        Case::new("an unknown operation").args(json!({ "operation": "xor", "base": "A", "tool": "B" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
