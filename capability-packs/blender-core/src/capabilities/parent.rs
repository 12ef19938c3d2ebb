use capstan_blender::{ParentObjects, ParentObjectsParams, ParentObjectsParamsMode as Mode, parent_objects};
use capstan_sdk::prelude::*;

/// The bridge command's parameters, with the rules between them in the schema (so an
/// agent that trusts the schema is not refused at run time) and checked again here
/// before any bridge call: mode `bone` and only it takes `bone`; `vertices` go only with
/// the vertex modes, one index for `vertex` and three for `vertex_triangle`; a
/// `keep_transform` given beside a mode agrees with it.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct ParentArgs(pub ParentObjectsParams);

impl JsonSchema for ParentArgs {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ParentArgs".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = ParentObjectsParams::json_schema(generator);
        let mode_is = |modes: &[&str]| json!({ "required": ["mode"], "properties": { "mode": { "enum": modes } } });
        schema.insert(
            "allOf".into(),
            json!([
                { "if": mode_is(&["bone"]), "then": { "required": ["bone"] }, "else": { "not": { "required": ["bone"] } } },
                { "if": mode_is(&["vertex"]), "then": { "properties": { "vertices": { "maxItems": 1 } } } },
                { "if": mode_is(&["vertex_triangle"]), "then": { "properties": { "vertices": { "minItems": 3 } } } },
                { "if": { "not": mode_is(&["vertex", "vertex_triangle"]) }, "then": { "not": { "required": ["vertices"] } } },
                { "if": mode_is(&["without_inverse"]), "then": { "not": { "required": ["keep_transform"], "properties": { "keep_transform": { "const": true } } } } },
                { "if": { "required": ["mode", "keep_transform"], "properties": { "keep_transform": { "const": false } } }, "then": { "properties": { "mode": { "const": "without_inverse" } } } },
            ]),
        );
        schema
    }
}

/// The rules of `ParentArgs`' schema, checked before the bridge is called.
fn check(p: &ParentObjectsParams) -> PackResult<()> {
    let mode = p.mode.unwrap_or(Mode::Object);
    if (mode == Mode::Bone) != p.bone.is_some() {
        return Err(PackError::invalid("mode bone needs a bone, and only mode bone takes one"));
    }
    match (mode, p.vertices.as_ref().map(Vec::len)) {
        (_, None) | (Mode::Vertex, Some(1)) | (Mode::VertexTriangle, Some(3)) => {}
        (Mode::Vertex | Mode::VertexTriangle, Some(n)) => {
            return Err(PackError::invalid(format!("mode vertex takes 1 vertex index and vertex_triangle 3, not {n}")));
        }
        (_, Some(_)) => return Err(PackError::invalid("vertices are given only with mode vertex or vertex_triangle")),
    }
    if let (Some(m), Some(keep)) = (p.mode, p.keep_transform)
        && keep == (m == Mode::WithoutInverse)
    {
        return Err(PackError::invalid("keep_transform false is mode without_inverse; give one of them"));
    }
    Ok(())
}

/// Parent objects to another in a mode of Blender's Set Parent To, or unparent them.
///
/// Sets `parent` (an object name, or null to unparent) for every object in `children`.
/// `mode`: `object` (the default) and `keep_transform` keep each child where it is in the
/// world; `without_inverse` keeps its local transform, so it moves with the parent;
/// `vertex` follows one vertex of a mesh parent and `vertex_triangle` three (`vertices`
/// gives the indices; without them, the nearest to each child); `bone` follows the
/// named `bone` of an armature parent. The vertex and bone modes keep the child in place.
/// A parent cannot become its own descendant.
#[capability(
    key = "object.parent",
    family = "object",
    tags = ["parent", "unparent", "child", "hierarchy", "attach", "group", "vertex parent", "bone parent", "without inverse", "keep transform"],
    aliases = ["parent_objects", "set_parent", "blender_set_parent", "parent_set", "parent_to_vertex", "parent_to_bone"],
    examples = ["parent the light to the cube", "attach the camera to the empty", "unparent the sphere",
                "parent the empty to vertex 3 of the plane", "parent the sword to the hand bone of the armature"],
    uses = [ParentObjects],
    cases = cases,
)]
fn parent(args: ParentArgs) -> PackResult<Value> {
    check(&args.0)?;
    Ok(json!(parent_objects(&args.0)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the light under the cube, in place")
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [1, 0, 0] }))
            .args(json!({ "parent": "Cube", "children": ["Light"] }))
            .changed(&["Light"]).fields("Light", &["parent"])
            .reads("scene.object_info", json!({ "name": "Light" }), json!({ "parent": "Cube", "parent_type": "OBJECT", "location": [3.07625, 1.00545, 5.90386] }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "children": ["Light"], "children_total": 1 })),
        Case::new("keep transform: the world position stays put")
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [1, 2, 0], "rotation": [0, 0, 90] }))
            .args(json!({ "parent": "Cube", "children": ["Light"], "mode": "keep_transform" }))
            .changed(&["Light"])
            .result(json!({ "mode": "keep_transform", "parent_type": "OBJECT", "keep_transform": true }))
            .reads("scene.object_info", json!({ "name": "Light" }), json!({ "parent": "Cube", "world_location": [4.07625, 1.00545, 5.90386] })),
        Case::new("without inverse: the local transform is kept, so the child moves with the parent")
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [1, 0, 0] }))
            .args(json!({ "parent": "Cube", "children": ["Light"], "mode": "without_inverse" }))
            .changed(&["Light"])
            .reads("scene.object_info", json!({ "name": "Light" }), json!({ "parent_type": "OBJECT", "location": [4.07625, 1.00545, 5.90386], "world_location": [5.07625, 1.00545, 5.90386] })),
        Case::new("vertex parent, the nearest vertex, in place")
            .args(json!({ "parent": "Cube", "children": ["Light"], "mode": "vertex" }))
            .changed(&["Light"])
            .result(json!({ "mode": "vertex", "parent_type": "VERTEX", "vertices": [[0]] }))
            .reads("scene.object_info", json!({ "name": "Light" }), json!({ "parent": "Cube", "parent_type": "VERTEX", "world_location": [4.07625, 1.00545, 5.90386] })),
        Case::new("vertex triangle parent on given vertices")
            .args(json!({ "parent": "Cube", "children": ["Camera"], "mode": "vertex_triangle", "vertices": [0, 1, 2] }))
            .changed(&["Camera"])
            .result(json!({ "parent_type": "VERTEX_3", "vertices": [[0, 1, 2]] }))
            .reads("scene.object_info", json!({ "name": "Camera" }), json!({ "parent_type": "VERTEX_3", "world_location": [7.35889, -6.92579, 4.95831] })),
        Case::new("a vertex parent needs a mesh").args(json!({ "parent": "Light", "children": ["Camera"], "mode": "vertex" })).error("invalid_target"),
        Case::new("a vertex the mesh does not have").args(json!({ "parent": "Cube", "children": ["Camera"], "mode": "vertex", "vertices": [99] })).error("not_found"),
        Case::new("a bone parent needs an armature").args(json!({ "parent": "Cube", "children": ["Camera"], "mode": "bone", "bone": "Hand" })).error("invalid_target"),
        Case::new("mode bone without a bone is refused by the schema")
            .args(json!({ "parent": "Cube", "children": ["Camera"], "mode": "bone" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("unparent").setup("object.parent", json!({ "parent": "Cube", "children": ["Camera"] }))
            .args(json!({ "parent": null, "children": ["Camera"] })).changed(&["Camera"])
            .reads("scene.object_info", json!({ "name": "Camera" }), json!({ "parent": null, "parent_type": "OBJECT" })),
        Case::new("a cycle is refused").setup("object.parent", json!({ "parent": "Cube", "children": ["Light"] }))
            .args(json!({ "parent": "Light", "children": ["Cube"] })).error("invalid_target"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> ParentObjectsParams {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn the_rules_between_arguments_are_checked_before_the_bridge() {
        assert!(check(&args(json!({ "parent": "A", "children": ["B"], "mode": "bone", "bone": "Hand" }))).is_ok());
        assert!(check(&args(json!({ "parent": "A", "children": ["B"], "mode": "bone" }))).is_err());
        assert!(check(&args(json!({ "parent": "A", "children": ["B"], "bone": "Hand" }))).is_err());
        assert!(check(&args(json!({ "parent": "A", "children": ["B"], "mode": "vertex", "vertices": [1, 2] }))).is_err());
        assert!(check(&args(json!({ "parent": "A", "children": ["B"], "mode": "vertex_triangle", "vertices": [1, 2, 3] }))).is_ok());
        assert!(check(&args(json!({ "parent": "A", "children": ["B"], "vertices": [1] }))).is_err());
        assert!(check(&args(json!({ "parent": "A", "children": ["B"], "mode": "without_inverse", "keep_transform": true }))).is_err());
        assert!(check(&args(json!({ "parent": "A", "children": ["B"], "mode": "object", "keep_transform": false }))).is_err());
        assert!(check(&args(json!({ "parent": "A", "children": ["B"], "keep_transform": false }))).is_ok());
    }
}
