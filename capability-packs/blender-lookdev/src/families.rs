//! The routing families blender-lookdev serves, with the words that send a request to
//! each. blender-core declares the same families (material, lighting, world, camera,
//! render) with their general cues; the host merges the cues of every pack. The cues
//! here are only the ones that name what this pack adds, so they do not pull blender-
//! core's phrases ("make it look like chrome", "move the camera", "render a png",
//! "hdri background", "three point lights") elsewhere. `uv` is new.

use capstan_sdk::Family;

pub fn families() -> Vec<Family> {
    vec![
        Family::new("material", "Materials and colours of objects")
            .cues(4, &["marble", "wood", "wooden", "concrete", "fabric", "procedural material", "shader node", "node tree", "bake", "baking", "normal map", "image texture", "texture map", "assign the material", "material slot", "which materials", "fog volume", "volumetric"]),
        Family::new("uv", "UV maps: unwrapping, projection, packing, seams, UV layers")
            .cues(5, &["uv", "uvs", "unwrap", "seam", "uv map", "uv layer", "islands", "texture coordinates", "lightmap", "0 1 space", "uv space"]),
        Family::new("lighting", "Lights and lighting rigs")
            .cues(4, &["brighter light", "dimmer light", "light energy", "light colour", "light color", "spot cone", "area light", "point light", "sun light", "wattage"]),
        Family::new("world", "The world: background colour, sky, environment")
            .cues(4, &["gradient background", "physical sky", "nishita", "sun elevation", "environment map", "exr environment", "altitude"]),
        Family::new("camera", "The camera: placement, aim, lens, depth of field")
            .cues(4, &["aim the camera", "point the camera", "frame the", "fit in frame", "in the shot", "zoom", "orthographic", "ortho", "fstop", "f stop", "aperture", "focus on", "sensor", "clipping",
                       "blur", "out of focus", "in view", "into view", "ortho scale"]),
        Family::new("render", "Render settings and rendering images")
            .cues(4, &["image sequence", "render frames", "frame range", "compositor", "bloom", "vignette", "glare", "denoise", "colour management", "color management", "view transform", "filmic", "agx", "exposure", "render audit", "audit the render", "render check"])
            // Above camera's "blur" (depth of field): motion blur is a render setting.
            .cues(6, &["motion blur"]),
    ]
}
