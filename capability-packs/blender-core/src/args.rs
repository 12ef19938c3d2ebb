//! Argument types of the capabilities; their JSON Schemas are generated from these.

use crate::angles::AngleUnit;
use crate::color::ColorInput;
use capstan_sdk::prelude::*;

/// No arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// One object, by its exact name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObjectRef {
    /// Exact object name as shown in the outliner (see `scene.info`).
    #[schemars(length(min = 1, max = 63))]
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Primitive {
    Cube,
    UvSphere,
    IcoSphere,
    Cylinder,
    Cone,
    Torus,
    Plane,
    Circle,
    Grid,
    Monkey,
    Empty,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateObject {
    /// What to add.
    #[serde(rename = "type")]
    pub kind: Primitive,
    /// Name for the new object; Blender picks one (`Cube.001`) when absent or taken.
    #[schemars(length(min = 1, max = 63))]
    pub name: Option<String>,
    /// Overall size in metres (edge length of a cube, diameter-ish for round things).
    #[schemars(range(min = 0.0001, max = 100000.0))]
    pub size: Option<f64>,
    /// Location [x, y, z] in metres.
    pub location: Option<[f64; 3]>,
    /// Rotation [x, y, z] (Euler XYZ) in `rotation_unit`.
    pub rotation: Option<[f64; 3]>,
    /// Unit of `rotation`: degrees (default) or radians.
    #[serde(default)]
    pub rotation_unit: AngleUnit,
    /// Scale [x, y, z]; every factor must be positive.
    #[schemars(inner(range(min = 0.000001)))]
    pub scale: Option<[f64; 3]>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModifyObject {
    /// Exact name of the object to change.
    #[schemars(length(min = 1, max = 63))]
    pub name: String,
    /// Rename the object.
    #[schemars(length(min = 1, max = 63))]
    pub new_name: Option<String>,
    /// New location [x, y, z] in metres.
    pub location: Option<[f64; 3]>,
    /// New rotation [x, y, z] (Euler XYZ) in `rotation_unit`.
    pub rotation: Option<[f64; 3]>,
    /// Unit of `rotation`: degrees (default) or radians.
    #[serde(default)]
    pub rotation_unit: AngleUnit,
    /// New scale [x, y, z]; every factor must be positive.
    #[schemars(inner(range(min = 0.000001)))]
    pub scale: Option<[f64; 3]>,
    /// Show (true) or hide (false) in viewport and render.
    pub visible: Option<bool>,
}

/// Starting points for common looks; explicit fields override them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MaterialPreset {
    Chrome,
    BrushedMetal,
    Gold,
    Copper,
    Plastic,
    Rubber,
    Ceramic,
    Matte,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetMaterial {
    /// Exact name of the object that gets the material.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// Material name; defaults to `<object>_material`. An existing one is updated.
    #[schemars(length(min = 1, max = 63))]
    pub material: Option<String>,
    /// A preset look to start from.
    pub preset: Option<MaterialPreset>,
    /// Base colour: hex (`#ff8800`) or name (`red`) in sRGB, or linear [r, g, b(, a)] in 0..1.
    pub color: Option<ColorInput>,
    /// 0 = dielectric, 1 = metal.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub metallic: Option<f64>,
    /// 0 = mirror, 1 = fully diffuse.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub roughness: Option<f64>,
    /// Emission colour (same forms as `color`); makes the object glow.
    pub emission: Option<ColorInput>,
    /// Emission strength; defaults to 1 when `emission` is given.
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub emission_strength: Option<f64>,
}
