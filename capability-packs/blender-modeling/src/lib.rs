//! blender-modeling: capstan's modeling capabilities for Blender.
//!
//! One file per capability in `src/capabilities/` (collected by the build script). They
//! drive the add-on's modeling commands (`commands/modeling.py`, `mesh_ops.py`,
//! `mesh_tools.py`, `topology.py`, `object_ops.py`, `collections.py`, `generation.py`,
//! `geometry_nodes.py`), all data API or bmesh, with degrees and metres on the wire.
//! The routing families this pack adds cues to are in `families.rs`; shared pure
//! helpers (LOD naming, pattern geometry) in `plan.rs`, tested without Blender.

mod families;
mod plan;

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));

pub use families::families;

capstan_sdk::export_pack!(families = families::families, capabilities = capabilities::all);

#[cfg(test)]
mod tests;
