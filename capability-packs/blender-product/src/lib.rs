//! blender-product: product-shot capabilities (packshots, hero images, turntables).
//!
//! One file per capability in `src/capabilities/`. Materials come from a preset table in
//! the add-on (`commands/product.py`), read back exactly; lighting rigs are owned
//! (`capstan_role` ID properties) and a later rig updates the same lights in place.

mod families;

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));

pub use families::families;

capstan_sdk::export_pack!(families = families::families, capabilities = capabilities::all);

#[cfg(test)]
mod tests;
