//! Which edges a fillet or chamfer rounds: all of them, or FreeCAD's edge numbers
//! (1 is `Edge1`), as `cad.object_info` and FreeCAD's own GUI name them.

use capstan_freecad::{ChamferParamsEdges, ChamferParamsEdgesString, FilletParamsEdges, FilletParamsEdgesString};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Edges {
    All(AllEdges),
    Numbered(Vec<u32>),
}

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AllEdges {
    All,
}

impl Default for Edges {
    fn default() -> Self {
        Edges::All(AllEdges::All)
    }
}

/// The arguments of an operation on a solid's edges (`cad.fillet`, `cad.chamfer`): the
/// solid, the operation's one size in millimetres, which edges, and the new feature's
/// name. Each operation words its own solid, size and name; the rest is declared here.
macro_rules! edge_args {
    ($args:ident, object: $object:literal, $size:ident: $size_doc:literal, name: $name:literal) => {
        #[derive(Debug, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $args {
            #[doc = $object]
            #[schemars(length(min = 1, max = 63))]
            pub object: String,
            #[doc = $size_doc]
            #[schemars(range(min = 0.001, max = 100000.0))]
            pub $size: f64,
            /// "all" (the default), or edge numbers as FreeCAD names them (1 is Edge1).
            #[serde(default)]
            #[schemars(schema_with = "crate::edges::schema")]
            pub edges: crate::edges::Edges,
            #[doc = $name]
            #[schemars(length(min = 1, max = 63))]
            pub name: Option<String>,
        }
    };
}
pub(crate) use edge_args;

/// A case on the block an edge operation cuts: a 10 x 20 x 30 mm box named Block.
pub fn on_block(name: &str) -> Case {
    Case::new(name).setup("cad.primitive", json!({ "kind": "box", "length": 10, "width": 20, "height": 30, "name": "Block" }))
}

/// The schema of an `edges` argument: `"all"`, or 1..1000 edge numbers from 1.
pub fn schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let all = json!({ "type": "string", "enum": ["all"], "description": "every edge of the solid" });
    let numbered = json!({
        "type": "array", "minItems": 1, "maxItems": 1000, "uniqueItems": true,
        "items": { "type": "integer", "minimum": 1, "maximum": 100000 },
        "description": "edge numbers as FreeCAD names them: 1 is Edge1",
    });
    serde_json::from_value(json!({ "oneOf": [all, numbered], "default": "all" })).expect("a schema")
}

impl Edges {
    fn numbers(&self) -> Option<Vec<i64>> {
        match self {
            Edges::All(_) => None,
            Edges::Numbered(list) => Some(list.iter().map(|&n| i64::from(n)).collect()),
        }
    }

    pub fn for_fillet(&self) -> FilletParamsEdges {
        self.numbers().map_or(FilletParamsEdges::String(FilletParamsEdgesString::All), FilletParamsEdges::Array)
    }

    pub fn for_chamfer(&self) -> ChamferParamsEdges {
        self.numbers().map_or(ChamferParamsEdges::String(ChamferParamsEdgesString::All), ChamferParamsEdges::Array)
    }
}
