//! Guest bindings generated from the WIT in `wit/pack@0.2.0` (frozen; see wit/README.md
//! in capstan). `sdk/wit/pack@0.2.0` links to the repository's `wit/pack@0.2.0`, so the
//! packaged crate carries the contract it builds.
//! Pack authors normally use [`crate::export_pack!`] and never touch these directly.

wit_bindgen::generate!({
    path: "wit/pack@0.2.0",
    world: "capability-pack",
    pub_export_macro: true,
    default_bindings_module: "capstan_sdk::bindings",
});
