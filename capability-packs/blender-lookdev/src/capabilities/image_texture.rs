use capstan_blender::{
    BindImageTexture, BindImageTextureParams, BindImageTextureParamsInput as Input, BindImageTextureParamsProjection as Projection,
    LoadImage, LoadImageParams, LoadImageParamsColorSpace as ColorSpace, bind_image_texture, load_image,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImageTextureArgs {
    /// Material whose Principled BSDF input the image drives.
    #[schemars(length(min = 1, max = 63))]
    pub material: String,
    /// The image file: an absolute path under a read root (CAPSTAN_READ_ROOTS), or the bare
    /// file name of a render or bake of this session.
    #[schemars(length(min = 1, max = 1024))]
    pub image_path: String,
    /// Which input the image drives (Normal goes through a Normal Map node, Displacement
    /// through a Displacement node to the output).
    pub input: Input,
    /// How the pixels are read; default sRGB for colours, Non-Color for data.
    pub color_space: Option<ColorSpace>,
    /// UV map to read the image with (default the active one).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub uv_map: Option<String>,
    /// FLAT (UVs) or BOX (tri-planar from object space).
    pub projection: Option<Projection>,
}

pub fn color_space(a: &ImageTextureArgs) -> ColorSpace {
    a.color_space.unwrap_or(match a.input {
        Input::BaseColor | Input::EmissionColor => ColorSpace::Srgb,
        _ => ColorSpace::NonColor,
    })
}

/// Drive a material input (colour, roughness, metallic, normal, alpha, emission, displacement) with a local image.
///
/// Loads the image (only from the read roots, or a file this session rendered or baked),
/// sets its colour space, and wires an Image Texture node into the Principled BSDF input
/// (through a Normal Map or Displacement node where needed). Re-binding an input replaces
/// its texture nodes.
#[capability(
    key = "material.image_texture",
    family = "material",
    tags = ["material", "texture", "image", "albedo", "normal map", "roughness map", "displacement", "uv"],
    aliases = ["set_texture", "material_set_texture", "image_texture", "apply_texture"],
    examples = ["use wood.png as the base colour of the table", "add a normal map to the wall", "texture the floor with this image"],
    uses = [LoadImage, BindImageTexture],
    cases = cases,
)]
fn image_texture(args: ImageTextureArgs) -> PackResult<Value> {
    let loaded = load_image(&LoadImageParams { path: args.image_path.clone(), color_space: Some(color_space(&args)) })?;
    let bound = bind_image_texture(&BindImageTextureParams {
        material: args.material.clone(),
        image: loaded.image.clone(),
        input: args.input,
        uv_map: args.uv_map.clone(),
        projection: args.projection,
    })?;
    Ok(json!({ "material": bound.material, "image": loaded.image, "path": loaded.path, "size": loaded.size,
               "color_space": loaded.color_space, "input": bound.input, "node": bound.node, "via": bound.via }))
}

fn cases() -> Vec<Case> {
    // The conformance scene has no files of its own: a render of this session (a bare
    // file name of the output folder) is the image.
    let render = |name: &str| json!({ "filename": name });
    vec![
        Case::new("a render of this session becomes the base colour")
            .setup("scene.render_settings", json!({ "engine": "cycles", "resolution": [16, 16], "samples": 1 }))
            .setup("scene.render", render("albedo.png"))
            .args(json!({ "material": "Material", "image_path": "albedo.png", "input": "Base Color" }))
            .added(&[]).changed(&[]).datablocks_added("images", &["albedo.png"])
            .result(json!({ "image": "albedo.png", "size": [16, 16], "color_space": "sRGB", "node": "capstan_tex_base_color" }))
            .reads("material.list", json!({ "material": "Material", "include_graph": true }), json!({ "materials": [{ "graph": { "links": [
                { "from_node": "Principled BSDF", "to_node": "Material Output", "to_socket": "Surface" },
                { "from_node": "capstan_tex_base_color", "from_socket": "Color", "to_node": "Principled BSDF", "to_socket": "Base Color" },
            ] } }] })),
        Case::new("a normal map goes through a Normal Map node")
            .setup("scene.render_settings", json!({ "engine": "cycles", "resolution": [16, 16], "samples": 1 }))
            .setup("scene.render", render("bumps.png"))
            .args(json!({ "material": "Material", "image_path": "bumps.png", "input": "Normal" }))
            .result(json!({ "color_space": "Non-Color", "via": "ShaderNodeNormalMap" })),
        Case::new("a path outside the read roots is refused").args(json!({ "material": "Material", "image_path": "/etc/passwd", "input": "Base Color" })).error("path_refused"),
        Case::new("a relative path is refused").args(json!({ "material": "Material", "image_path": "textures/wood.png", "input": "Base Color" })).error("path_refused"),
        Case::new("a path that climbs out is refused").args(json!({ "material": "Material", "image_path": "/tmp/../etc/x.png", "input": "Roughness" })).error("path_refused"),
        Case::new("a missing file of the output folder").args(json!({ "material": "Material", "image_path": "absent.png", "input": "Base Color" })).error("not_found"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_inputs_read_srgb_and_data_inputs_non_color() {
        let a = |input: &str| serde_json::from_value::<ImageTextureArgs>(json!({ "material": "M", "image_path": "a.png", "input": input })).unwrap();
        assert_eq!(color_space(&a("Base Color")), ColorSpace::Srgb);
        assert_eq!(color_space(&a("Normal")), ColorSpace::NonColor);
        assert_eq!(color_space(&a("Roughness")), ColorSpace::NonColor);
    }
}
