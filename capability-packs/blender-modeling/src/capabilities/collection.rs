use capstan_blender::{
    DeleteCollection, DeleteCollectionParams, ListCollections, ListCollectionsParams, ManageCollection, ManageCollectionParams,
    ManageCollectionParamsAction, delete_collection, list_collections, manage_collection,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    List,
    Create,
    Delete,
    Move,
    Link,
    Unlink,
}

/// What each action needs besides itself, said in the schema: a call without it is refused
/// before any bridge call.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("create", &["name"]), ("delete", &["name"]), ("move", &["name"]), ("link", &["name"]), ("unlink", &["name"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct CollectionArgs {
    /// list the tree; create a collection (moving `objects` into it); delete one (its
    /// objects and children go to its parent); move `objects` into it, or move it under
    /// `parent`; link `objects` into it too; unlink `objects` from it.
    pub action: Action,
    /// The collection ("Scene Collection" is the scene's root). Needed by all but list.
    #[schemars(length(min = 1, max = 63))]
    pub name: Option<String>,
    /// create: where the new collection goes; move without objects: the new parent.
    #[schemars(length(min = 1, max = 63))]
    pub parent: Option<String>,
    /// Objects to put in or take out.
    #[schemars(length(min = 1, max = 256))]
    pub objects: Option<Vec<String>>,
}

/// Organise objects in collections: list, create, delete, move, link, unlink.
///
/// Deleting a collection keeps its objects and child collections (whatever would be left in
/// none goes to its parent). Unlinking an object from its only collection is refused: move
/// it instead. The scene's root is called "Scene Collection".
#[capability(
    key = "object.collection",
    family = "object",
    tags = ["collection", "collections", "group", "organise", "organize", "folder", "outliner", "layer"],
    aliases = ["manage_collection", "collection_manage", "collection_list", "scene.collections", "move_to_collection"],
    examples = ["put the lights in a collection called Lighting", "move the cube to the Props collection", "list the collections", "delete the Temp collection"],
    uses = [ListCollections, ManageCollection, DeleteCollection],
    cases = cases,
)]
fn collection(args: CollectionArgs) -> PackResult<Value> {
    if args.action == Action::List {
        if args.name.is_some() || args.parent.is_some() || args.objects.is_some() {
            return Err(PackError::invalid("list takes no name, parent or objects"));
        }
        return Ok(json!(list_collections(&ListCollectionsParams::default())?));
    }
    let name = args.name.ok_or_else(|| PackError::invalid("this action needs the collection's name"))?;
    let action = match args.action {
        Action::Delete => {
            if args.parent.is_some() || args.objects.is_some() {
                return Err(PackError::invalid("delete takes only the collection's name"));
            }
            return Ok(json!(delete_collection(&DeleteCollectionParams { name })?));
        }
        Action::Create => ManageCollectionParamsAction::Create,
        Action::Move => ManageCollectionParamsAction::Move,
        Action::Link => ManageCollectionParamsAction::Link,
        _ => ManageCollectionParamsAction::Unlink,
    };
    Ok(json!(manage_collection(&ManageCollectionParams { action, name, parent: args.parent, objects: args.objects })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a new collection with the lights moved in")
            .args(json!({ "action": "create", "name": "Lighting", "objects": ["Light"] }))
            .changed(&["Light"]).fields("Light", &["collections"]).added(&[]).settings(&["scene"])
            .datablocks_added("collections", &["Lighting"])
            .result(json!({ "collection": "Lighting", "parent": "Scene Collection", "created": true, "objects": ["Light"] }))
            .reads("scene.object_info", json!({ "name": "Light" }), json!({ "collections": ["Lighting"] })),
        Case::new("link keeps the old membership")
            .setup("object.collection", json!({ "action": "create", "name": "Props" }))
            .args(json!({ "action": "link", "name": "Props", "objects": ["Cube"] }))
            .changed(&["Cube"]).reads("scene.object_info", json!({ "name": "Cube" }), json!({ "collections": ["Collection", "Props"] })),
        Case::new("deleting keeps the objects")
            .setup("object.collection", json!({ "action": "create", "name": "Temp", "objects": ["Cube"] }))
            .args(json!({ "action": "delete", "name": "Temp" }))
            .changed(&["Cube"]).removed(&[])
            .result(json!({ "deleted": "Temp", "relinked_objects": ["Cube"], "to": "Scene Collection" }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "collections": ["Scene Collection"] })),
        Case::new("move takes the cube out of its old collection")
            .setup("object.collection", json!({ "action": "create", "name": "Props" }))
            .args(json!({ "action": "move", "name": "Props", "objects": ["Cube"] }))
            .changed(&["Cube"]).fields("Cube", &["collections"])
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "collections": ["Props"] })),
        Case::new("a collection moves under another")
            .setup("object.collection", json!({ "action": "create", "name": "Props" }))
            .args(json!({ "action": "move", "name": "Props", "parent": "Collection" }))
            .changed(&[]).settings(&["scene"])
            .result(json!({ "collection": "Props", "parent": "Collection" })),
        Case::new("list shows the tree").args(json!({ "action": "list" })).changed(&[])
            .result(json!({ "collections": [
                { "name": "Scene Collection", "parent": null, "children": ["Collection"], "objects": [] },
                { "name": "Collection", "parent": "Scene Collection", "objects": ["Camera", "Cube", "Light"], "objects_total": 3 } ] })),
        Case::new("unlinking from the only collection is refused")
            .args(json!({ "action": "unlink", "name": "Collection", "objects": ["Cube"] })).error("invalid_target"),
        Case::new("a missing collection").args(json!({ "action": "move", "name": "Nowhere", "objects": ["Cube"] })).error("not_found"),
    ]
}
