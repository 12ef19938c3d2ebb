//! What `capstan packs new` writes for a Blender pack, per language: the manifest, a
//! README, two capabilities (count objects of a type, add a marker empty) and their
//! tests. `{{placeholders}}` are filled by the scaffold's renderer.

use crate::app_unit::PackTemplates;

pub const TEMPLATES: PackTemplates = PackTemplates {
    rust: &[
        ("pack.json", include_str!("pack_templates/rust/pack.json.tmpl")),
        ("README.md", include_str!("pack_templates/rust/README.md.tmpl")),
        ("src/lib.rs", include_str!("pack_templates/rust/lib.rs.tmpl")),
        ("src/capabilities/count_objects.rs", include_str!("pack_templates/rust/count_objects.rs.tmpl")),
        ("src/capabilities/add_marker.rs", include_str!("pack_templates/rust/add_marker.rs.tmpl")),
    ],
    python: &[
        ("pack.json", include_str!("pack_templates/python/pack.json.tmpl")),
        ("README.md", include_str!("pack_templates/python/README.md.tmpl")),
        ("src/app.py", include_str!("pack_templates/python/app.py.tmpl")),
        ("src/capabilities.py", include_str!("pack_templates/python/capabilities.py.tmpl")),
        ("tests/test_capabilities.py", include_str!("pack_templates/python/test_capabilities.py.tmpl")),
    ],
    js: &[
        ("pack.json", include_str!("pack_templates/js/pack.json.tmpl")),
        ("README.md", include_str!("pack_templates/js/README.md.tmpl")),
        ("src/pack.js", include_str!("pack_templates/js/pack.js.tmpl")),
        ("tests/pack.test.mjs", include_str!("pack_templates/js/pack.test.mjs.tmpl")),
    ],
};
