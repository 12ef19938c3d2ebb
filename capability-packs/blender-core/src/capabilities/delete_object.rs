use capstan_blender::{DeleteObject, DeleteObjectParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Delete objects by name.
///
/// Removes one object (`name`) or several (`names`). Destructive: they are gone. Objects that
/// pointed at them (children, constraint targets) are reported as changed; names that do not
/// exist are listed in `not_found`.
#[capability(
    key = "scene.delete_object",
    family = "mutate",
    tags = ["delete", "remove", "destroy", "object"],
    aliases = ["blender_delete_object", "delete_object", "remove_object"],
    examples = ["delete the default cube", "remove the light"],
    uses = [DeleteObject],
    cases = cases,
)]
fn delete_object(args: DeleteObjectParams) -> PackResult<impl Serialize> {
    Ok(forward::<DeleteObject>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the default cube").args(json!({ "name": "Cube" })).removed(&["Cube"]).changed(&[])
            .result(json!({ "deleted": ["Cube"], "not_found": [] })),
        Case::new("a parent: its child is changed")
            .setup("object.parent", json!({ "parent": "Cube", "children": ["Light"] }))
            .args(json!({ "names": ["Cube", "Ghost"] })).removed(&["Cube"]).changed(&["Light"]).fields("Light", &["parent"])
            .result(json!({ "deleted": ["Cube"], "not_found": ["Ghost"] })),
        Case::new("the scene camera").args(json!({ "name": "Camera" })).removed(&["Camera"]).settings(&["scene"]),
        Case::new("nothing that exists").args(json!({ "name": "Ghost" })).error("not_found"),
    ]
}
