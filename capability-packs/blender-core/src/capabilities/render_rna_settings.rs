use capstan_blender::{
    ReadSettings, ReadSettingsParams, ReadSettingsParamsTarget, ReadSettingsParamsTargetKind, SetSettings, SetSettingsParams,
    SetSettingsParamsSettingsItem, SetSettingsParamsTarget, SetSettingsParamsTargetKind, read_settings, set_settings,
};
use capstan_sdk::prelude::*;

/// Paths with this prefix are the view layer's (its passes); the others the scene's.
const VIEW_LAYER: &str = "view_layer.";

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    /// RNA path from the scene (`render.image_settings.color_depth`, `cycles.samples`, `eevee.taa_render_samples`,
    /// `render.use_stamp_note`, `rigidbody_world.time_scale`) or `view_layer.` + a view-layer path (`view_layer.use_pass_mist`).
    #[schemars(length(min = 1, max = 256))]
    pub path: String,
    /// Number, boolean, string, enum item (a list for flags) or array, checked against this Blender's RNA.
    pub value: Value,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = settings_or_read)]
pub struct RenderSettingsArgs {
    /// The view layer `view_layer.` paths mean (default: the active one).
    #[schemars(length(min = 1, max = 63))]
    pub view_layer: Option<String>,
    /// Settings to set, in order, in one undo step.
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub settings: Vec<Setting>,
    /// Paths to read (after setting), each with its type, enum items, range and default; `render.*` lists a group.
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub read: Vec<String>,
}

fn settings_or_read(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::require_any_nonempty(schema, &["settings", "read"]);
}

/// The bridge path of `path` and whether it is the view layer's.
fn split(path: &str) -> (bool, String) {
    match path.strip_prefix(VIEW_LAYER) {
        Some(rest) => (true, rest.to_string()),
        None => (false, path.to_string()),
    }
}

fn set_target(layer: bool, name: &Option<String>) -> SetSettingsParamsTarget {
    let kind = if layer { SetSettingsParamsTargetKind::ViewLayer } else { SetSettingsParamsTargetKind::Scene };
    SetSettingsParamsTarget { kind, name: if layer { name.clone() } else { None }, object: None }
}

fn read_target(layer: bool, name: &Option<String>) -> ReadSettingsParamsTarget {
    let kind = if layer { ReadSettingsParamsTargetKind::ViewLayer } else { ReadSettingsParamsTargetKind::Scene };
    ReadSettingsParamsTarget { kind, name: if layer { name.clone() } else { None }, object: None }
}

fn prefixed(layer: bool, path: &str) -> String {
    if layer { format!("{VIEW_LAYER}{path}") } else { path.to_string() }
}

/// Set or read any render setting of the scene by Blender's RNA path: output format, passes, samples, stamp.
///
/// The scene's render settings (`render.*`: resolution, frame rate, the output image format
/// with `render.image_settings.file_format` OPEN_EXR_MULTILAYER, `color_depth`, `exr_codec`,
/// `quality`, FFmpeg video, the metadata stamp and `render.stamp_note_text`), Cycles
/// (`cycles.*`: samples, viewport samples, denoiser), EEVEE (`eevee.*`), the rigid body world
/// (`rigidbody_world.*`) and the view layer's passes (`view_layer.use_pass_mist`,
/// `view_layer.use_pass_z`, `view_layer.use_pass_cryptomatte_object`, `view_layer.cycles.denoising_store_passes`).
/// Values are checked against the running Blender's RNA; a refused one changes nothing.
#[capability(
    key = "render.settings",
    family = "render",
    tags = ["settings", "exr", "multilayer", "openexr", "32-bit", "color depth", "codec", "passes", "mist", "depth pass",
            "cryptomatte", "denoiser", "viewport samples", "stamp", "metadata", "note", "ffmpeg", "file format"],
    aliases = ["render_output_settings", "set_render_property", "view_layer_passes"],
    examples = ["render to 32-bit EXR multilayer", "turn on the mist pass", "enable the cryptomatte object pass",
                "stamp the frame number and a note on renders", "use the OpenImageDenoise denoiser", "set viewport samples to 16",
                "what file formats can I render to"],
    uses = [SetSettings, ReadSettings],
    cases = cases,
)]
fn render_rna_settings(args: RenderSettingsArgs) -> PackResult<Value> {
    if args.settings.is_empty() && args.read.is_empty() {
        return Err(PackError::invalid("nothing to do: give `settings` ([{path, value}]) or `read` ([path])"));
    }
    let mut changes = Vec::new();
    for layer in [false, true] {
        let mine: Vec<_> = args.settings.iter().filter(|s| split(&s.path).0 == layer).collect();
        if mine.is_empty() {
            continue;
        }
        let settings = mine.iter().map(|s| SetSettingsParamsSettingsItem { path: split(&s.path).1, value: s.value.clone() }).collect();
        let done = set_settings(&SetSettingsParams { target: set_target(layer, &args.view_layer), settings })?;
        for c in done.changes {
            changes.push(json!({ "path": prefixed(layer, &c.path), "before": c.before, "after": c.after }));
        }
    }
    let mut values = Vec::new();
    let mut version = None;
    for layer in [false, true] {
        let read: Vec<String> = args.read.iter().map(|p| split(p)).filter(|(l, _)| *l == layer).map(|(_, p)| p).collect();
        if read.is_empty() {
            continue;
        }
        let got = read_settings(&ReadSettingsParams { target: read_target(layer, &args.view_layer), read })?;
        version = Some(got.version);
        for v in got.values {
            values.push(json!({ "path": prefixed(layer, &v.path), "value": v.value, "facts": v.facts }));
        }
    }
    let mut out = json!({});
    if !args.settings.is_empty() {
        out["changes"] = json!(changes);
    }
    if !args.read.is_empty() {
        out["values"] = json!(values);
        out["version"] = json!(version);
    }
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("32-bit EXR multilayer with the mist pass, read back")
            .args(json!({ "settings": [
                    { "path": "render.image_settings.file_format", "value": "OPEN_EXR_MULTILAYER" },
                    { "path": "render.image_settings.color_depth", "value": "32" },
                    { "path": "view_layer.use_pass_mist", "value": true }],
                "read": ["render.image_settings.file_format", "render.image_settings.color_depth", "view_layer.use_pass_mist"] }))
            .settings(&["render"]).added(&[]).changed(&[])
            .result(json!({ "values": [
                { "path": "render.image_settings.file_format", "value": "OPEN_EXR_MULTILAYER" },
                { "path": "render.image_settings.color_depth", "value": "32" },
                { "path": "view_layer.use_pass_mist", "value": true }] })),
        Case::new("a stamp with its note")
            .args(json!({ "settings": [{ "path": "render.use_stamp", "value": true }, { "path": "render.use_stamp_note", "value": true },
                                       { "path": "render.stamp_note_text", "value": "take 3" }], "read": ["render.stamp_note_text"] }))
            .settings(&["render"])
            .result(json!({ "values": [{ "path": "render.stamp_note_text", "value": "take 3" }] })),
        Case::new("a file path outside the output folder is refused, naming it")
            .args(json!({ "settings": [{ "path": "render.filepath", "value": "/etc/capstan-elsewhere/" }] }))
            .error("outside_file_references"),
        Case::new("an enum item that is not one is refused")
            .args(json!({ "settings": [{ "path": "render.image_settings.file_format", "value": "GIF" }] }))
            .error("invalid_params"),
        Case::new("nothing to do").args(json!({})).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
