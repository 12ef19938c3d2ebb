//! blender-inspect: reading the Blender scene without changing it.
//!
//! One file per capability in `src/capabilities/`; every capability is read-only and
//! calls only `read` bridge commands (the host refuses the pack otherwise), so its delta
//! is empty by construction and the bridge's verification mode proves it in the tests.
//! Every answer is bounded: pages with totals and next offsets, capped lists with
//! `truncated`, a preview render of at most 1024x1024 and 16 samples.

mod families;

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));

pub use families::families;

capstan_sdk::export_pack!(families = families::families, capabilities = capabilities::all);

#[cfg(test)]
mod tests;
