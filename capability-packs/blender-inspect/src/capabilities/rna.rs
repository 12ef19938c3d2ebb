use capstan_blender::{RnaDescribe, RnaDescribeParams, RnaSearch, RnaSearchParams, rna_describe, rna_search};
use capstan_sdk::prelude::*;

/// A type to describe or a text to search for, said in the schema.
fn type_or_query(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::require_any(schema, &["type_name", "query"]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = type_or_query)]
pub struct RnaArgs {
    /// Describe this type's properties (e.g. SubsurfModifier); without it, search the type names for `query`.
    #[schemars(length(min = 1, max = 128), regex(pattern = r"^[A-Za-z][A-Za-z0-9_]*$"))]
    pub type_name: Option<String>,
    /// Case-insensitive text to find in identifiers, names and descriptions (required without type_name).
    #[schemars(length(min = 1, max = 64))]
    pub query: Option<String>,
    /// First row of the page (default 0).
    #[schemars(range(min = 0, max = 100000))]
    #[serde(default)]
    pub offset: i64,
    /// Rows per page (default 100, at most 500).
    #[schemars(range(min = 1, max = 500))]
    #[serde(default = "limit")]
    pub limit: i64,
}

fn limit() -> i64 {
    100
}

/// Live RNA lookup in the running Blender: find types by name, or list one type's properties with enum items and ranges.
///
/// With `type_name`, the type's properties (type, subtype, hard and soft ranges, enum
/// items, read-only) and function names, filtered by `query`; without it, the types whose
/// name or description contains `query`. Paged. Read-only: it sets nothing, so an agent
/// learns the real enum values of this Blender before it calls a mutating capability.
#[capability(
    key = "inspect.rna",
    family = "inspect",
    tags = ["rna", "api", "docs", "enum", "properties", "types", "reference", "bpy"],
    aliases = ["rna_search", "rna_describe", "runtime.rna_search", "runtime.rna_describe", "search_api_docs", "get_python_api_docs"],
    examples = ["what properties does the subdivision modifier have", "which enum values does the bevel modifier take", "search the api docs for light probe"],
    uses = [RnaSearch, RnaDescribe],
    cases = cases,
)]
fn rna(args: RnaArgs) -> PackResult<Value> {
    let mut out = match args.type_name {
        Some(type_name) => json!(rna_describe(&RnaDescribeParams { type_name, query: args.query, offset: Some(args.offset), limit: Some(args.limit) })?),
        None => {
            let query = args.query.ok_or_else(|| PackError::invalid("give type_name to describe a type, or query to search the types"))?;
            json!(rna_search(&RnaSearchParams { query, offset: Some(args.offset), limit: Some(args.limit) })?)
        }
    };
    out["mutation_authority"] = json!(false);
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("describe a modifier's levels")
            .args(json!({ "type_name": "SubsurfModifier", "query": "render_levels" }))
            .result(json!({ "type_name": "SubsurfModifier", "base": "Modifier", "page": { "total": 1 },
                            "properties": [{ "identifier": "render_levels", "type": "INT", "min": 0.0, "read_only": false }] })),
        Case::new("enum items come from the running Blender")
            .args(json!({ "type_name": "SubsurfModifier", "query": "subdivision_type" }))
            .result(json!({ "properties": [{ "identifier": "subdivision_type", "type": "ENUM",
                            "enum_items": [{ "identifier": "CATMULL_CLARK" }, { "identifier": "SIMPLE" }] }] })),
        Case::new("search the type names")
            .args(json!({ "query": "SubsurfModifier" }))
            .result(json!({ "types": [{ "name": "SubsurfModifier", "base": "Modifier" }], "page": { "total": 1 }, "mutation_authority": false })),
        Case::new("pages of a large type")
            .args(json!({ "type_name": "Object", "limit": 2 }))
            .result(json!({ "page": { "offset": 0, "limit": 2, "next_offset": 2 } })),
        Case::new("an unknown type").args(json!({ "type_name": "NoSuchType" })).error("not_found"),
        Case::new("neither type nor query").args(json!({})).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
