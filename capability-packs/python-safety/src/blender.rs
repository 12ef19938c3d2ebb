//! Blender's own routes to code execution, persistence and files.
//!
//! Two kinds of match, because aliasing can hide a path but not a name:
//! - by resolved dotted path (`bpy.ops.wm.open_mainfile`, also through `import ... as`,
//!   `from bpy import ops`, `o = bpy.ops`, `getattr(bpy.ops, "wm")`), for operator
//!   categories whose names are ordinary words elsewhere (`text`, `file`, `image`);
//! - by attribute name wherever it appears, for names that only ever mean the route
//!   (`driver_namespace`, `as_module`, `save_as_mainfile`, `handlers`).

use crate::rules::Rule;

/// Operator categories under `bpy.ops` and what they reach.
const OPS_CATEGORIES: &[(&str, Rule)] = &[
    ("wm", Rule::BlenderCodeExecution),
    ("script", Rule::BlenderCodeExecution),
    ("text", Rule::BlenderCodeExecution),
    ("console", Rule::BlenderCodeExecution),
    ("preferences", Rule::BlenderPersistence),
    ("extensions", Rule::BlenderPersistence),
    ("file", Rule::BlenderFileAccess),
    ("image", Rule::BlenderFileAccess),
    ("sound", Rule::BlenderFileAccess),
    ("ptcache", Rule::BlenderFileAccess),
    // Collection exporters write to their configured paths; node bakes write caches.
    ("collection.exporter_export", Rule::BlenderFileAccess),
    ("collection.export_all", Rule::BlenderFileAccess),
    ("object.simulation_nodes_cache_bake", Rule::BlenderFileAccess),
    ("object.geometry_node_bake_single", Rule::BlenderFileAccess),
    ("fluid", Rule::BlenderFileAccess),
    ("cachefile", Rule::BlenderFileAccess),
    ("screen.screenshot", Rule::BlenderFileAccess),
    ("screen.screenshot_area", Rule::BlenderFileAccess),
    ("render.play_rendered_anim", Rule::BlenderFileAccess),
    ("sequencer.export_subtitles", Rule::BlenderFileAccess),
    ("outliner.lib_operation", Rule::BlenderFileAccess),
    // Operators that write (or read) a file by a name of their own or from the scene,
    // with or without a path keyword: `anim.keying_set_export` writes a Python file
    // (issue 26 planted `shlex.py` with it); `cycles.denoise_animation` rewrites the
    // render output (`/tmp/` by default) and `cycles.merge_images` writes its output;
    // bakes write caches and image sequences next to the .blend (`//`); proxies are
    // written beside their source; asset operators write catalogs and asset files
    // into asset libraries; `asset.open_containing_blend_file` starts another Blender.
    ("anim.keying_set_export", Rule::BlenderFileAccess),
    ("cycles.denoise_animation", Rule::BlenderFileAccess),
    ("cycles.merge_images", Rule::BlenderFileAccess),
    ("object.ocean_bake", Rule::BlenderFileAccess),
    ("object.multires_external_save", Rule::BlenderFileAccess),
    ("object.multires_external_pack", Rule::BlenderFileAccess),
    ("dynamic_paint.bake", Rule::BlenderFileAccess),
    ("sequencer.rebuild_proxy", Rule::BlenderFileAccess),
    ("clip.rebuild_proxy", Rule::BlenderFileAccess),
    ("clip.open", Rule::BlenderFileAccess),
    ("asset.catalogs_save", Rule::BlenderFileAccess),
    ("asset.bundle_install", Rule::BlenderFileAccess),
    ("asset.open_containing_blend_file", Rule::BlenderFileAccess),
    ("poselib.create_pose_asset", Rule::BlenderFileAccess),
    ("paint.image_from_view", Rule::BlenderFileAccess),
    ("node.add_import_node", Rule::BlenderFileAccess),
    ("node.add_image", Rule::BlenderFileAccess),
    ("node.add_file", Rule::BlenderFileAccess),
    ("graph.sound_to_samples", Rule::BlenderFileAccess),
    ("ed.lib_id_load_custom_preview", Rule::BlenderFileAccess),
];

/// Operator name prefixes (`category.prefix`) whose every operator writes or deletes
/// files: the geometry-node and simulation bakes (their caches, in the bake directory
/// next to the .blend), the brush asset operators (asset files in a library).
const OPS_PREFIXES: &[(&str, Rule)] = &[
    ("object.geometry_node_bake", Rule::BlenderFileAccess),
    ("object.simulation_nodes_cache", Rule::BlenderFileAccess),
    ("brush.asset_", Rule::BlenderFileAccess),
];

/// Other dotted paths.
const PATHS: &[(&str, Rule)] = &[
    ("bpy.utils.execfile", Rule::BlenderCodeExecution),
    // Property definitions only take effect registered on a Blender type, where they
    // (and their update/get/set callbacks) outlive the script.
    ("bpy.props", Rule::BlenderPersistence),
    ("bpy.utils.load_scripts", Rule::BlenderCodeExecution),
    ("bpy.utils.load_scripts_init", Rule::BlenderCodeExecution),
    ("bpy.utils.modules_from_path", Rule::BlenderCodeExecution),
    ("bpy.utils.register_submodule_factory", Rule::BlenderCodeExecution),
    ("bpy.utils.refresh_script_paths", Rule::BlenderPersistence),
    ("bpy.utils.script_paths", Rule::BlenderPersistence),
    ("bpy.app.handlers", Rule::BlenderPersistence),
    ("bpy.app.timers", Rule::BlenderPersistence),
    ("bpy.app.driver_namespace", Rule::BlenderCodeExecution),
    ("bpy.msgbus", Rule::BlenderPersistence),
    ("bpy.data.libraries", Rule::BlenderFileAccess),
    ("bpy.context.preferences", Rule::BlenderPersistence),
    ("bpy_extras.io_utils", Rule::BlenderFileAccess),
    ("bpy_extras.extensions", Rule::BlenderCodeExecution),
    ("bpy_extras.keyconfig_utils", Rule::BlenderPersistence),
    ("bpy.utils.previews", Rule::BlenderFileAccess),
    ("bpy.app.translations", Rule::BlenderPersistence),
    ("bpy.app.icons", Rule::BlenderFileAccess),
    ("bpy_extras.image_utils", Rule::BlenderFileAccess),
    ("addon_utils", Rule::BlenderPersistence),
    // `bpy.path` helpers that list or probe directories of any path.
    ("bpy.path.module_names", Rule::BlenderFileAccess),
    ("bpy.path.resolve_ncase", Rule::BlenderFileAccess),
];

/// Attribute names that mean the route wherever they appear.
const ATTRIBUTES: &[(&str, Rule)] = &[
    // Files: the depsgraph's debug dumps write to any path; `file_path_foreach`
    // rewrites every datablock's path (and `pack()` then reads it);
    // `extension_path_user(create=True)` makes directories anywhere.
    ("debug_relations_graphviz", Rule::BlenderFileAccess),
    ("debug_stats_gnuplot", Rule::BlenderFileAccess),
    ("file_path_foreach", Rule::BlenderFileAccess),
    ("extension_path_user", Rule::BlenderFileAccess),
    // Persistence: `sys.path` and preset search paths outlive the script.
    ("expose_bundled_modules", Rule::BlenderPersistence),
    ("register_preset_path", Rule::BlenderPersistence),
    ("unregister_preset_path", Rule::BlenderPersistence),
    ("wm", Rule::BlenderCodeExecution),
    ("script", Rule::BlenderCodeExecution),
    ("console", Rule::BlenderCodeExecution),
    ("keyconfig_set", Rule::BlenderCodeExecution),
    ("to_value", Rule::BlenderCodeExecution),
    ("modules_from_path", Rule::BlenderCodeExecution),
    ("register_submodule_factory", Rule::BlenderCodeExecution),
    ("preferences", Rule::BlenderPersistence),
    ("extensions", Rule::BlenderPersistence),
    ("register_class", Rule::BlenderPersistence),
    ("register_tool", Rule::BlenderPersistence),
    ("register_manual_map", Rule::BlenderPersistence),
    ("keymap_items", Rule::BlenderPersistence),
    ("keyconfigs", Rule::BlenderPersistence),
    ("unpack", Rule::BlenderFileAccess),
    ("save_as", Rule::BlenderFileAccess),
    ("junction_module", Rule::BlenderCodeExecution),
    ("junctionmodulehandle", Rule::BlenderCodeExecution),
    ("driver_button_add", Rule::BlenderCodeExecution),
    ("paste_driver_button", Rule::BlenderCodeExecution),
    ("register_classes_factory", Rule::BlenderPersistence),
    ("register_cli_command", Rule::BlenderPersistence),
    ("draw_cursor_add", Rule::BlenderPersistence),
    ("addon_keymap_register", Rule::BlenderPersistence),
    ("keyconfig_utils", Rule::BlenderPersistence),
    ("popup_menu", Rule::BlenderPersistence),
    ("translations", Rule::BlenderPersistence),
    ("preset_add", Rule::BlenderFileAccess),
    ("previews", Rule::BlenderFileAccess),
    ("new_sound", Rule::BlenderFileAccess),
    ("new_image", Rule::BlenderFileAccess),
    ("new_movie", Rule::BlenderFileAccess),
    ("new_triangles_from_file", Rule::BlenderFileAccess),
    ("user_resource", Rule::BlenderFileAccess),
    ("driver_namespace", Rule::BlenderCodeExecution),
    ("driver_add", Rule::BlenderCodeExecution),
    ("drivers", Rule::BlenderCodeExecution),
    ("as_module", Rule::BlenderCodeExecution),
    ("use_module", Rule::BlenderCodeExecution),
    ("run_script", Rule::BlenderCodeExecution),
    ("execfile", Rule::BlenderCodeExecution),
    ("python_file_run", Rule::BlenderCodeExecution),
    ("load_scripts", Rule::BlenderCodeExecution),
    ("handlers", Rule::BlenderPersistence),
    ("timers", Rule::BlenderPersistence),
    ("msgbus", Rule::BlenderPersistence),
    ("draw_handler_add", Rule::BlenderPersistence),
    ("modal_handler_add", Rule::BlenderPersistence),
    ("event_timer_add", Rule::BlenderPersistence),
    ("use_scripts_auto_execute", Rule::BlenderPersistence),
    ("autoexec_paths", Rule::BlenderPersistence),
    ("script_directory", Rule::BlenderPersistence),
    ("script_directories", Rule::BlenderPersistence),
    ("addon_install", Rule::BlenderPersistence),
    ("addon_enable", Rule::BlenderPersistence),
    ("save_userpref", Rule::BlenderPersistence),
    ("open_mainfile", Rule::BlenderFileAccess),
    ("save_mainfile", Rule::BlenderFileAccess),
    ("save_as_mainfile", Rule::BlenderFileAccess),
    ("save_render", Rule::BlenderFileAccess),
    ("libraries", Rule::BlenderFileAccess),
    ("unpack_all", Rule::BlenderFileAccess),
    // `image.pack()` reads the datablock's file into the .blend, and `packed_file.data`
    // hands its bytes to the script; `reload()` reads a datablock's file again;
    // `bpy.data.temp_data(filepath=...)` is a second Main whose libraries load .blend
    // files; `pack_linked_ids_hierarchy` reads library files.
    ("pack", Rule::BlenderFileAccess),
    ("packed_file", Rule::BlenderFileAccess),
    ("packed_files", Rule::BlenderFileAccess),
    ("reload", Rule::BlenderFileAccess),
    ("temp_data", Rule::BlenderFileAccess),
    ("pack_linked_ids_hierarchy", Rule::BlenderFileAccess),
    // Instances of Blender's Python-defined classes: the operators that ran (their
    // `execute` evaluates its string properties again), and the property groups'
    // `register`/`unregister` (`scene.cycles.unregister()` removes Cycles' settings for
    // every later script), pop-ups and status-bar texts that keep a draw function, and
    // the menu helpers that list directories.
    ("operators", Rule::BlenderCodeExecution),
    ("active_operator", Rule::BlenderCodeExecution),
    ("register", Rule::BlenderPersistence),
    ("unregister", Rule::BlenderPersistence),
    ("popover", Rule::BlenderPersistence),
    ("popup_menu_pie", Rule::BlenderPersistence),
    ("status_text_set", Rule::BlenderPersistence),
    ("path_menu", Rule::BlenderFileAccess),
    ("draw_preset", Rule::BlenderFileAccess),
];

/// `bpy.ops.render.*` calls that write frames to the output path.
pub const RENDER_WRITE_KEYWORDS: &[&str] = &["write_still", "animation"];

/// Operator keywords that name files or folders (any `bpy.ops` call) or hold code
/// (`settings` values of `node.add_node` are evaluated as Python).
///
/// Judged by the words of the keyword, not a list, so an operator added later is
/// covered: any word starting with `file` (`filepath`, `output_filepath`,
/// `input_filepath1`, `filename`, `files`, `filemode`), `path`/`paths` (`relative_path`,
/// `catalog_path`; RNA data paths, `*data_path`, are not files), `directory`, `folder`,
/// a last word `dir` (`export_texture_dir`), and `save_mode` (a bake's `EXTERNAL` writes images to their paths).
pub fn operator_keyword_rule(name: &str) -> Option<Rule> {
    if name == "settings" {
        return Some(Rule::BlenderCodeExecution);
    }
    let file_word = |w: &str| w.starts_with("file") || matches!(w, "path" | "paths" | "directory" | "folder");
    let dir = name == "dir" || name.ends_with("_dir");
    if name == "save_mode" || dir || (!name.ends_with("data_path") && name.split('_').any(file_word)) {
        return Some(Rule::BlenderFileAccess);
    }
    None
}

/// Node types that read or write files of the script's choosing when evaluated: the
/// geometry importers (their path is a string socket, not a `filepath` property),
/// the compositor's file output, OSL script nodes. Named by a string anywhere in a
/// script (`nodes.new("GeometryNodeImportText")`, on any collection, in any case),
/// they are rejected; so is every `GeometryNodeImport*` (a later Blender's importers).
pub const FILE_NODE_TYPES: &[&str] = &[
    "GeometryNodeImportText", "GeometryNodeImportCSV", "GeometryNodeImportOBJ", "GeometryNodeImportPLY",
    "GeometryNodeImportSTL", "GeometryNodeImportVDB", "CompositorNodeOutputFile", "ShaderNodeScript",
];

/// Does the string `text` name a node type that reads or writes files?
pub fn is_file_node_type(text: &str) -> bool {
    const IMPORTERS: &str = "geometrynodeimport";
    let trimmed = text.trim();
    FILE_NODE_TYPES.iter().any(|t| t.eq_ignore_ascii_case(trimmed)) || trimmed.get(..IMPORTERS.len()).is_some_and(|p| p.eq_ignore_ascii_case(IMPORTERS))
}

/// Operators that take no file, directory or code option at all, so `**options`
/// cannot hide one: mesh editing and primitives, transforms, the curve, surface and
/// metaball primitives, and the plain object-adding operators. (`object.empty_image_add`
/// and `node.add_file` take a file and are not here.)
pub fn operator_options_are_harmless(path: &[String]) -> bool {
    match path.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["bpy", "ops", "mesh" | "transform", _] => true,
        ["bpy", "ops", "curve" | "surface" | "mball", op] => op.starts_with("primitive_"),
        ["bpy", "ops", "object", op] => matches!(*op, "camera_add" | "light_add" | "empty_add" | "text_add" | "armature_add" | "metaball_add"),
        _ => false,
    }
}

/// Blender's own top-level modules: names that are module-only in the standard
/// library (`operator`, `types`) are ordinary there (`bpy.types`, `layout.operator`).
pub fn is_blender_module(top: &str) -> bool {
    matches!(top, "bpy" | "bmesh" | "mathutils" | "bpy_extras" | "bl_math" | "idprop")
}

/// Module values that must not be passed around: once `bpy.ops` is an argument, a
/// list element or a loop variable, the operator it reaches can no longer be named.
pub fn must_not_escape(path: &[String]) -> bool {
    matches!(path.iter().map(String::as_str).collect::<Vec<_>>().as_slice(), ["bpy"] | ["bpy", "ops" | "utils" | "app" | "data" | "types"])
}

/// The rule a dotted path falls under, if any (a prefix match on whole parts).
pub fn path_rule(path: &[String]) -> Option<(Rule, String)> {
    let joined = path.join(".");
    let under = |prefix: &str| joined.strip_prefix(prefix).is_some_and(|rest| rest.is_empty() || rest.starts_with('.'));
    if path.len() >= 3 && path[0] == "bpy" && path[1] == "ops" {
        let op = path[2..].join(".").to_ascii_lowercase();
        for (category, rule) in OPS_CATEGORIES {
            if op.strip_prefix(category).is_some_and(|rest| rest.is_empty() || rest.starts_with('.')) {
                return Some((*rule, format!("bpy.ops.{category}")));
            }
        }
        for (prefix, rule) in OPS_PREFIXES {
            if op.starts_with(prefix) {
                return Some((*rule, format!("bpy.ops.{prefix}*")));
            }
        }
        let category = path[2].to_ascii_lowercase();
        if category.starts_with("export_") || category.starts_with("import_") {
            return Some((Rule::BlenderFileAccess, format!("bpy.ops.{}", path[2])));
        }
    }
    if path.len() == 4 && path[0] == "bpy" && path[1] == "data" && path[3] == "load" {
        return Some((Rule::BlenderFileAccess, format!("bpy.data.{}.load", path[2])));
    }
    if path.len() == 4 && path[0] == "bpy" && path[1] == "types" && matches!(path[3].as_str(), "append" | "prepend") {
        return Some((Rule::BlenderPersistence, format!("bpy.types.{}.{}", path[2], path[3])));
    }
    PATHS.iter().find(|(p, _)| under(p)).map(|(p, r)| (*r, p.to_string()))
}

/// Changing a module's state outlives the script: `json.dumps = f`,
/// `json.encoder.ESCAPE_DCT[k] = v` or `json.decoder.BACKSLASH.update(...)` change
/// `json` for everything else in Blender, `bpy.types.Object.x = prop` registers a
/// property. Scene data (`bpy.context.*`, `bpy.data.*`) is what scripts are for.
pub fn changes_module_state(path: &[String]) -> bool {
    match path.first().map(String::as_str) {
        Some("bpy") => matches!(path.get(1).map(String::as_str), Some("types" | "utils" | "app" | "ops" | "props" | "msgbus" | "path")),
        Some(_) => true,
        None => false,
    }
}

/// Blender resolves operator categories case-insensitively (`bpy.ops.WM` is
/// `WM_OT_*`), so names are compared in lower case.
pub fn attribute_rule(name: &str) -> Option<Rule> {
    static TABLE: std::sync::OnceLock<std::collections::HashMap<&'static str, Rule>> = std::sync::OnceLock::new();
    let name = if name.bytes().any(|b| b.is_ascii_uppercase()) { std::borrow::Cow::Owned(name.to_ascii_lowercase()) } else { std::borrow::Cow::Borrowed(name) };
    // Exporters and importers by their names (`export_scene`, `keying_set_export`,
    // `usd_import`, `grease_pencil_export_svg`), whatever category they are reached by.
    let file_verb = |v: &str| name.starts_with(&format!("{v}_")) || name.ends_with(&format!("_{v}")) || name.contains(&format!("_{v}_"));
    if file_verb("export") || file_verb("import") {
        return Some(Rule::BlenderFileAccess);
    }
    TABLE.get_or_init(|| ATTRIBUTES.iter().copied().collect()).get(name.as_ref()).copied()
}

/// Assigning to these attributes points Blender at a path on disk (render output,
/// image and cache files, library paths, any `*_path`, `*_dir` or `*directory*`), makes
/// it write to disk on its own (a bake's `save_mode`, a point cache's
/// `use_disk_cache`), or points it at code (a driver's expression).
pub fn store_rule(name: &str) -> Option<Rule> {
    let file_setting = matches!(name, "file_name" | "filename" | "proxy_dir" | "base_path" | "save_mode" | "use_disk_cache");
    if name.contains("filepath") || name.contains("directory") || (name.ends_with("path") && name != "data_path") || name.ends_with("_dir") || file_setting {
        Some(Rule::BlenderFileAccess)
    } else if name == "expression" {
        Some(Rule::BlenderCodeExecution)
    } else if name == "clipboard" {
        Some(Rule::BlenderPersistence)
    } else {
        None
    }
}

/// The names under `bpy.types` a script may use, read from a real Blender by
/// `tools/list_bpy_types.py` (sorted, one a line, `#` comments first).
const BPY_TYPES: &str = include_str!("bpy_types.txt");

/// Is `name` one of Blender's own data types (listed in `bpy_types.txt`)?
///
/// Security reasoning: every class Blender registers from Python lives under
/// `bpy.types` by its RNA name (`WM_OT_context_toggle`, `SCRIPT_OT_execute_preset`,
/// `NODE_OT_add_node`, `TEXT_MT_templates_py`, `UI_UL_list`, ...), and its methods run
/// with whatever object a script passes as `self`: `WM_OT_context_toggle.execute(Props(),
/// context)` execs `Props.data_path` and imports `Props.module` with the real builtins
/// of Blender's own modules. A denylist of such classes would miss the next add-on's,
/// so the list is the other way round: Blender's data types (defined in C, or the data
/// types `_bpy_types` extends with helpers that only touch scene data) may be named,
/// and anything else under `bpy.types` is rejected, registered classes and the Python
/// base classes they are made from (Operator, Menu, Panel, ...) included.
pub fn is_listed_bpy_type(name: &str) -> bool {
    static LIST: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let list = LIST.get_or_init(|| BPY_TYPES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect());
    list.binary_search(&name).is_ok()
}

/// Blender's naming convention for classes registered from Python: an upper-case
/// category, a type code, a name (`WM_OT_context_toggle`, `VIEW3D_MT_add`,
/// `CYCLES_RENDER_PT_sampling`, `UI_UL_list`, `ASSETBROWSER_AST_x`, `NODE_FH_image_node`).
/// Such a name means one of those classes wherever it appears (`getattr(x, "WM_OT_...")`,
/// an attribute of a module reached by value, an imported name).
pub fn is_registered_class_name(name: &str) -> bool {
    const TYPE_CODES: &[&str] = &["OT", "MT", "PT", "HT", "UL", "GT", "GGT", "AST", "FH", "KSI"];
    // Most attributes are lower-case words: decided on the first byte, no allocation.
    if !name.as_bytes().first().is_some_and(u8::is_ascii_uppercase) || !name.contains('_') {
        return false;
    }
    let upper = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
    let mut parts = name.split('_').peekable();
    let mut index = 0;
    while let Some(part) = parts.next() {
        if parts.peek().is_none() || !upper(part) {
            return false;
        }
        if index > 0 && TYPE_CODES.contains(&part) {
            return true;
        }
        index += 1;
    }
    false
}

/// A path through `bpy.types` (also re-exported: `bpy_extras.io_utils.bpy.types.X`):
/// why it is rejected, if it is. Judged on its last parts, so each spelling is reported
/// once, where it first goes wrong.
pub fn bpy_types_rule(path: &[String]) -> Option<String> {
    let n = path.len();
    let at = |i: usize| path.get(i).map(String::as_str);
    if n >= 3 && at(n - 3) == Some("bpy") && at(n - 2) == Some("types") {
        let name = &path[n - 1];
        if is_listed_bpy_type(name) || names_only_metadata(name) {
            return None;
        }
        let what = if is_registered_class_name(name) || name.split('_').next().is_some_and(|p| p.len() > 1 && p.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())) {
            "a class Blender registered from Python (an operator, menu, panel, header, list, gizmo or shelf): its methods evaluate strings, import modules and write files with any object as `self`"
        } else if matches!(name.as_str(), "Operator" | "Macro" | "Menu" | "Panel" | "Header" | "UIList" | "Gizmo" | "GizmoGroup" | "AssetShelf" | "FileHandler" | "KeyingSetInfo" | "RenderEngine" | "HydraRenderEngine" | "PropertyGroup" | "AddonPreferences" | "USDHook") {
            "the Python base of Blender's registrable classes: only useful registered, and its Python methods (`Menu.path_menu` lists any directory) take any object as `self`"
        } else {
            "not one of Blender's data types (only those may be named under `bpy.types`, for isinstance checks and annotations)"
        };
        return Some(format!("`bpy.types.{name}` is {what}"));
    }
    if n >= 4 && at(n - 4) == Some("bpy") && at(n - 3) == Some("types") && is_listed_bpy_type(&path[n - 2]) {
        let (class, attr) = (&path[n - 2], &path[n - 1]);
        if !matches!(attr.as_str(), "bl_rna" | "__name__" | "__qualname__" | "__doc__") {
            return Some(format!("`bpy.types.{class}.{attr}` takes `{attr}` from the class, where it is called with any object as `self`; use it through an instance (`obj.{attr}`)"));
        }
    }
    None
}

/// Module attributes of `bpy.types` that are not classes (`bpy.types.__name__`).
fn names_only_metadata(name: &str) -> bool {
    matches!(name, "__name__" | "__doc__")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_class_names_are_told_from_data_types_and_constants() {
        for name in ["WM_OT_context_toggle", "VIEW3D_MT_add", "CYCLES_RENDER_PT_sampling", "NODE_DATA_PT_EEVEE_light", "UI_UL_list", "EXPORT_ANIM_OT_bvh", "VIEW3D_GGT_xform_gizmo", "IMAGE_FH_drop_handler"] {
            assert!(is_registered_class_name(name), "{name}");
        }
        for name in ["Mesh", "ShaderNodeBsdfPrincipled", "LineStyleAlphaModifier_AlongStroke", "MAX_SIZE", "DEFAULT_OT", "location", "OT_x", "_OT_x", "wm_OT_x"] {
            assert!(!is_registered_class_name(name), "{name}");
        }
    }

    #[test]
    fn operator_keywords_that_name_files_or_folders() {
        for name in ["filepath", "output_filepath", "input_filepath1", "filename", "files", "filemode", "directory", "repo_directory", "custom_directory", "relative_path", "relative_paths", "catalog_path", "path", "dir", "export_texture_dir", "import_textures_dir", "use_batch_own_dir", "filter_folder", "save_mode", "display_file_selector"] {
            assert_eq!(operator_keyword_rule(name), Some(Rule::BlenderFileAccess), "{name}");
        }
        for name in ["profile", "profile_type", "direction", "data_path", "prop_data_path", "size", "location", "type", "use_transform", "segments", "mouse_dir_constraint"] {
            assert_eq!(operator_keyword_rule(name), None, "{name}");
        }
        assert_eq!(operator_keyword_rule("settings"), Some(Rule::BlenderCodeExecution));
    }

    #[test]
    fn operators_that_write_files_by_name_are_listed() {
        let path = |s: &str| s.split('.').map(String::from).collect::<Vec<_>>();
        for op in [
            "bpy.ops.anim.keying_set_export", "bpy.ops.cycles.denoise_animation", "bpy.ops.cycles.merge_images", "bpy.ops.object.ocean_bake",
            "bpy.ops.object.geometry_node_bake_single", "bpy.ops.object.geometry_node_bake_unpack_single", "bpy.ops.object.geometry_node_bake_delete_single",
            "bpy.ops.object.simulation_nodes_cache_bake", "bpy.ops.object.simulation_nodes_cache_delete", "bpy.ops.brush.asset_save_as", "bpy.ops.brush.asset_delete",
            "bpy.ops.dynamic_paint.bake", "bpy.ops.sequencer.rebuild_proxy", "bpy.ops.clip.rebuild_proxy", "bpy.ops.asset.catalogs_save",
            "bpy.ops.node.add_import_node", "bpy.ops.export_scene.gltf", "bpy.ops.render.play_rendered_anim",
        ] {
            assert_eq!(path_rule(&path(op)).map(|(r, _)| r), Some(Rule::BlenderFileAccess), "{op}");
        }
        for op in ["bpy.ops.mesh.primitive_cube_add", "bpy.ops.object.bake", "bpy.ops.render.render", "bpy.ops.asset.mark", "bpy.ops.object.modifier_add"] {
            assert_eq!(path_rule(&path(op)), None, "{op}");
        }
        for attr in ["keying_set_export", "usd_export", "exporter_export", "grease_pencil_export_svg", "export_scene", "import_curve", "alembic_import"] {
            assert_eq!(attribute_rule(attr), Some(Rule::BlenderFileAccess), "{attr}");
        }
        for attr in ["exporters", "location", "importance"] {
            assert_eq!(attribute_rule(attr), None, "{attr}");
        }
    }

    #[test]
    fn file_node_types_are_recognised_in_any_case_and_every_importer() {
        for t in ["GeometryNodeImportText", "geometrynodeimportcsv", "GeometryNodeImportUSD", " ShaderNodeScript", "COMPOSITORNODEOUTPUTFILE"] {
            assert!(is_file_node_type(t), "{t}");
        }
        for t in ["ShaderNodeTexNoise", "GeometryNodeMeshCube", "GeometryNodeImpor", "Import", ""] {
            assert!(!is_file_node_type(t), "{t}");
        }
    }

    #[test]
    fn stores_that_point_blender_at_disk() {
        for name in ["filepath", "filepath_raw", "bake_directory", "proxy_dir", "cache_dir", "base_path", "file_subpath", "save_mode", "use_disk_cache", "directory"] {
            assert_eq!(store_rule(name), Some(Rule::BlenderFileAccess), "{name}");
        }
        for name in ["data_path", "location", "use_nodes", "name", "dirty"] {
            assert_eq!(store_rule(name), None, "{name}");
        }
    }

    #[test]
    fn the_listed_bpy_types_are_sorted_and_hold_the_data_types() {
        let list: Vec<&str> = BPY_TYPES.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
        assert!(list.windows(2).all(|w| w[0] < w[1]), "bpy_types.txt is not sorted");
        for name in ["Mesh", "Object", "ShaderNodeBsdfPrincipled", "bpy_struct"] {
            assert!(is_listed_bpy_type(name), "{name}");
        }
        for name in ["WM_OT_context_toggle", "Operator", "Menu", "Panel", "PropertyGroup"] {
            assert!(!is_listed_bpy_type(name), "{name}");
        }
    }
}
