use capstan_blender::{CreateMesh, CreateMeshParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Add a mesh object from explicit vertices, edges and faces.
///
/// `vertices` are [x, y, z] in metres (1 to 65536); `faces` list vertex indices in winding
/// order (3 or more each), `edges` [a, b] pairs for loose edges. Indices are checked before
/// anything is made; Blender's validation then repairs what it can and says so (`repaired`).
#[capability(
    key = "create.mesh",
    family = "create",
    tags = ["mesh", "vertices", "faces", "polygons", "from data", "geometry", "pydata", "custom shape"],
    aliases = ["create_mesh", "mesh_from_data", "from_pydata"],
    examples = ["make a mesh from these vertices and faces", "build a pyramid from 5 vertices", "create a triangle at these three points"],
    uses = [CreateMesh],
    cases = cases,
)]
fn mesh(args: CreateMeshParams) -> PackResult<impl Serialize> {
    Ok(forward::<CreateMesh>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a square pyramid from five vertices")
            .args(json!({ "name": "Pyramid", "location": [3, 0, 0],
                          "vertices": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1]],
                          "faces": [[0, 1, 2, 3], [0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]] }))
            .added(&["Pyramid"]).changed(&[]).removed(&[])
            .result(json!({ "name": "Pyramid", "mesh": { "vertices": 5, "edges": 8, "faces": 5 }, "repaired": false }))
            .reads("scene.object_info", json!({ "name": "Pyramid" }), json!({ "location": [3.0, 0.0, 0.0], "dimensions": [1.0, 1.0, 1.0], "mesh": { "vertices": 5, "faces": 5 } })),
        Case::new("a loose edge").args(json!({ "name": "Wire", "vertices": [[0, 0, 0], [0, 0, 2]], "edges": [[0, 1]] }))
            .added(&["Wire"]).result(json!({ "mesh": { "vertices": 2, "edges": 1, "faces": 0 } })),
        Case::new("a face naming a missing vertex changes nothing")
            .args(json!({ "name": "Broken", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "faces": [[0, 1, 3]] })).error("invalid_params"),
        Case::new("a name with a slash is refused")
            .args(json!({ "name": "a/b", "vertices": [[0, 0, 0]] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
