use crate::plan::{Axis, radial_offset, scaled};
use capstan_blender::{
    AddModifier, AddModifierParams, AddModifierParamsPropertiesValue as V, AddModifierParamsType, CreateObject, CreateObjectParams,
    CreateObjectParamsType, EvaluatedStats, EvaluatedStatsParams, ParentObjects, ParentObjectsParams, add_modifier, create_object,
    evaluated_stats, parent_objects,
};
use capstan_sdk::prelude::*;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Pattern {
    /// `count` copies in a row along `axis`.
    Linear,
    /// `count` columns along `axis` by `rows` rows along the next axis (x -> y -> z -> x).
    Grid,
    /// `count` copies turned evenly about `axis` (360 / count degrees apart).
    Radial,
}

const MAX_COPIES: u32 = 10_000;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PatternArgs {
    /// The object to repeat (it stays one object; the copies come from Array modifiers).
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    pub pattern: Pattern,
    /// Copies along the axis (a grid's columns), 1..1000.
    #[schemars(range(min = 1, max = 1000))]
    pub count: u32,
    /// grid: rows along the next axis (default count).
    #[schemars(range(min = 1, max = 1000))]
    pub rows: Option<u32>,
    /// linear/grid: metres between copies' origins, in the object's axes (default: the
    /// object's own size, so copies touch).
    #[schemars(range(min = -10000.0, max = 10000.0))]
    pub spacing: Option<f64>,
    /// linear/grid: direction of the row (default x); radial: the axis turned about (default z).
    pub axis: Option<Axis>,
    /// radial: metres from the ring's centre to the object's origin (default 0: turn about the origin).
    #[schemars(range(min = 0.0, max = 10000.0))]
    pub radius: Option<f64>,
}

fn array(object: &str, name: &str, props: Vec<(&str, V)>) -> PackResult<Value> {
    let properties: BTreeMap<String, V> = props.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    let r = add_modifier(&AddModifierParams { object: object.into(), r#type: AddModifierParamsType::Array, name: Some(name.into()), properties: Some(properties) })?;
    Ok(json!(r.modifier))
}

fn vector(v: [f64; 3]) -> V {
    V::Array(v.iter().map(|x| json!(x)).collect())
}

fn row(count: u32, axis: Axis, spacing: Option<f64>) -> Vec<(&'static str, V)> {
    let mut props = vec![("count", V::Number(f64::from(count)))];
    match spacing {
        Some(s) => props.extend([
            ("use_relative_offset", V::Boolean(false)),
            ("use_constant_offset", V::Boolean(true)),
            ("constant_offset_displace", vector(scaled(axis.unit(), s))),
        ]),
        None => props.push(("relative_offset_displace", vector(axis.unit()))),
    }
    props
}

/// Repeat an object in a linear row, a grid or a radial ring (Array modifiers, non-destructive).
///
/// linear: `count` copies along `axis`; grid: `count` x `rows`; radial: `count` copies
/// turned 360/count degrees apart about `axis` through a centre `radius` metres away (an
/// empty parented to the object drives the turn, so the ring follows the object).
/// `spacing` is the distance between copies in metres (default: touching). At most 10,000
/// copies. The answer gives the evaluated dimensions and vertex count.
#[capability(
    key = "generation.pattern",
    family = "generation",
    tags = ["pattern", "linear array", "grid", "radial", "circular array", "ring", "repeat", "copies", "tile"],
    aliases = ["array_pattern", "radial_array", "grid_array", "linear_array", "pattern"],
    examples = ["make a row of 10 fence posts 2 metres apart", "arrange 12 chairs in a circle of radius 3", "tile the floor panel in a 5 by 5 grid"],
    uses = [AddModifier, CreateObject, ParentObjects, EvaluatedStats],
    cases = cases,
)]
fn pattern(args: PatternArgs) -> PackResult<Value> {
    let rows = args.rows.unwrap_or(args.count);
    if args.pattern != Pattern::Grid && args.rows.is_some() {
        return Err(PackError::invalid("rows is for the grid pattern"));
    }
    if args.pattern == Pattern::Radial && args.spacing.is_some() {
        return Err(PackError::invalid("a radial pattern takes radius, not spacing"));
    }
    if args.pattern != Pattern::Radial && args.radius.is_some() {
        return Err(PackError::invalid("radius is for the radial pattern"));
    }
    let total = if args.pattern == Pattern::Grid { args.count * rows } else { args.count };
    if total > MAX_COPIES {
        return Err(PackError::invalid(format!("{total} copies is more than {MAX_COPIES}")));
    }
    let mut modifiers = Vec::new();
    let mut pivot = Value::Null;
    match args.pattern {
        Pattern::Linear => modifiers.push(array(&args.object, "Pattern", row(args.count, args.axis.unwrap_or(Axis::X), args.spacing))?),
        Pattern::Grid => {
            let axis = args.axis.unwrap_or(Axis::X);
            modifiers.push(array(&args.object, "Pattern Columns", row(args.count, axis, args.spacing))?);
            modifiers.push(array(&args.object, "Pattern Rows", row(rows, axis.next(), args.spacing))?);
        }
        Pattern::Radial => {
            let axis = args.axis.unwrap_or(Axis::Z);
            let (location, rotation) = radial_offset(axis, args.count, args.radius.unwrap_or(0.0));
            let name: String = format!("{} Pivot", args.object).chars().take(63).collect();
            let empty = create_object(&CreateObjectParams {
                r#type: CreateObjectParamsType::Empty, name: Some(name), size: Some(0.5), location: Some(location), rotation: Some(rotation), scale: None,
                primitive: None, empty: None, light: None,
            })?;
            // Parented without keeping the world transform: its transform is then the
            // offset in the object's own space, and it follows the object.
            parent_objects(&ParentObjectsParams { parent: Some(args.object.clone()), children: vec![empty.name.clone()], keep_transform: Some(false), mode: None, vertices: None, bone: None })?;
            modifiers.push(array(&args.object, "Pattern Radial", vec![
                ("count", V::Number(f64::from(args.count))),
                ("use_relative_offset", V::Boolean(false)),
                ("use_object_offset", V::Boolean(true)),
                ("offset_object", V::String(empty.name.clone())),
            ])?);
            pivot = json!(empty.name);
        }
    }
    let stats = evaluated_stats(&EvaluatedStatsParams { objects: vec![args.object.clone()] })?;
    let s = &stats.objects[0];
    Ok(json!({ "object": args.object, "copies": total, "modifiers": modifiers, "pivot": pivot,
               "evaluated": s.evaluated, "dimensions": s.dimensions, "bounds_min": s.bounds_min, "bounds_max": s.bounds_max }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("five cubes in a row, 3 m apart")
            .args(json!({ "object": "Cube", "pattern": "linear", "count": 5, "spacing": 3 }))
            .changed(&["Cube"]).fields("Cube", &["modifiers"]).added(&[])
            .result(json!({ "copies": 5, "modifiers": ["Pattern"], "evaluated": { "vertices": 40 }, "dimensions": [14.0, 2.0, 2.0] })),
        Case::new("a touching 3 by 2 grid")
            .args(json!({ "object": "Cube", "pattern": "grid", "count": 3, "rows": 2 }))
            .changed(&["Cube"]).result(json!({ "copies": 6, "evaluated": { "vertices": 48 }, "dimensions": [6.0, 4.0, 2.0] })),
        Case::new("four cubes on a ring of radius 4")
            .args(json!({ "object": "Cube", "pattern": "radial", "count": 4, "radius": 4 }))
            .changed(&["Cube"]).added(&["Cube Pivot"])
            .result(json!({ "copies": 4, "pivot": "Cube Pivot", "evaluated": { "vertices": 32 }, "dimensions": [10.0, 10.0, 2.0],
                            "bounds_min": [-9.0, -5.0, -1.0], "bounds_max": [1.0, 5.0, 1.0] }))
            .reads("scene.object_info", json!({ "name": "Cube Pivot" }), json!({ "parent": "Cube", "type": "EMPTY" })),
        Case::new("radius belongs to radial").args(json!({ "object": "Cube", "pattern": "linear", "count": 2, "radius": 1 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a missing object").args(json!({ "object": "Ghost", "pattern": "linear", "count": 2 })).error("not_found"),
    ]
}
