//! Guest bindings generated from the WIT in `wit/pack@0.2.0` (draft; see wit/README.md).
//! Pack authors normally use [`crate::export_pack!`] and never touch these directly.

wit_bindgen::generate!({
    path: "../wit/pack@0.2.0",
    world: "capability-pack",
    pub_export_macro: true,
    default_bindings_module: "capstan_sdk::bindings",
});
