use crate::paths;
use capstan_blender::{CreateImagePlane, CreateImagePlaneParams, create_image_plane};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImagePlaneArgs {
    /// A .png or .jpg: an absolute path under a read root, or the bare file name of an
    /// image in the session output folder (a render of this session).
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// Name of the new plane (default the image's file name).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: Option<String>,
    /// Length of the longer side in metres (default 1); the other side keeps the image's aspect.
    #[schemars(range(min = 0.0001, max = 1000.0))]
    pub size: Option<f64>,
    /// Where the plane goes, metres.
    pub location: Option<[f64; 3]>,
    /// Rotation in degrees (XYZ Euler); the plane lies in its local XY plane.
    pub rotation: Option<[f64; 3]>,
    /// The image also emits its colour, so it shows unlit (reference boards).
    #[serde(default)]
    pub emission: bool,
    /// The image's alpha makes the plane transparent (cut-outs, labels).
    #[serde(default)]
    pub alpha: bool,
}

/// Add an image as a textured plane with its aspect ratio (reference boards, labels, cut-outs).
///
/// The image is a .png or .jpg under a read root or a render of this session. The plane's
/// longer side is `size` metres; `emission` shows the image unlit, `alpha` cuts it out by
/// its transparency. Rotation in degrees.
#[capability(
    key = "io.image_plane",
    family = "io",
    tags = ["image", "plane", "reference", "reference image", "billboard", "label", "decal", "cutout"],
    aliases = ["import_image_as_plane", "image_as_plane", "create_image_plane", "reference_image"],
    examples = ["add logo.png as a plane", "put the reference photo on a plane behind the model", "make an image plane 2 metres wide from the poster"],
    uses = [CreateImagePlane],
    cases = cases,
)]
fn image_plane(args: ImagePlaneArgs) -> PackResult<Value> {
    paths::input(&args.path)?;
    Ok(json!(create_image_plane(&CreateImagePlaneParams {
        path: args.path,
        name: args.name,
        size: args.size,
        location: args.location,
        rotation: args.rotation.map(|r| r.map(f64::to_radians)),
        emission: Some(args.emission),
        alpha: Some(args.alpha),
    })?))
}

fn cases() -> Vec<Case> {
    // The image is a render of this session (a bare file name of the output folder).
    let render = json!({ "filename": "board.png", "engine": "cycles", "resolution": [32, 16], "samples": 1 });
    vec![
        Case::new("a 2:1 render as a 2 m board")
            .setup("scene.render", render.clone())
            .args(json!({ "path": "board.png", "name": "Board", "size": 2.0, "location": [0, 3, 1], "rotation": [90, 0, 0], "emission": true }))
            .added(&["Board"]).removed(&[]).changed(&[])
            .result(json!({ "name": "Board", "image": "board.png", "dimensions": [2.0, 1.0] }))
            .reads("scene.object_info", json!({ "name": "Board" }), json!({ "location": [0.0, 3.0, 1.0], "mesh": { "vertices": 4, "faces": 1 } })),
        Case::new("a path outside the read roots").args(json!({ "path": "/etc/board.png" })).error("path_refused"),
        Case::new("not a png or jpg").args(json!({ "path": "board.exr" })).error("path_refused"),
        Case::new("no such image").args(json!({ "path": "absent.png" })).error("not_found"),
        Case::new("a zero size").args(json!({ "path": "board.png", "size": 0 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
