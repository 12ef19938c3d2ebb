//! blender-core: the core Blender capabilities of capstan.
//!
//! Each capability turns validated, agent-friendly arguments (degrees, colour names,
//! material presets) into one typed bridge command with Blender-native values
//! (radians, linear RGBA). The pure translation lives in `params`, tested without
//! Blender; the handlers here only add the bridge call.

mod angles;
mod args;
mod color;
mod params;

use args::*;
use capstan_sdk::prelude::*;

fn scene_info(_: NoArgs) -> PackResult<Value> {
    bridge::call("get_scene_info", &json!({}))
}

fn object_info(args: ObjectRef) -> PackResult<Value> {
    bridge::call("get_object_info", &json!({ "name": args.name }))
}

fn create_object(args: CreateObject) -> PackResult<Value> {
    bridge::call("create_object", &params::create_object(&args)?)
}

fn modify_object(args: ModifyObject) -> PackResult<Value> {
    bridge::call("modify_object", &params::modify_object(&args)?)
}

fn delete_object(args: ObjectRef) -> PackResult<Value> {
    bridge::call("delete_object", &json!({ "name": args.name }))
}

fn set_material(args: SetMaterial) -> PackResult<Value> {
    bridge::call("set_material", &params::set_material(&args)?)
}

pub fn capabilities() -> Vec<Capability> {
    vec![
        Capability::new("scene.info", "inspect", scene_info)
            .summary("List the scene: objects with type and transform, frame range, render engine")
            .description("Read-only overview of the current scene. Start here before changing anything.")
            .tags(&["scene", "objects", "list", "overview", "inspect"])
            .aliases(&["blender_get_scene_info", "get_scene_info"])
            .examples(&["what's in the scene", "list the objects", "show me the scene"])
            .bridge(&["get_scene_info"]),
        Capability::new("scene.object_info", "inspect", object_info)
            .summary("Read one object: transform, dimensions, materials, modifiers, mesh stats")
            .description("Read-only details of one object, by exact name.")
            .tags(&["object", "details", "transform", "inspect"])
            .aliases(&["blender_get_object_info", "get_object_info"])
            .examples(&["tell me about the cube", "where is the camera", "object details"])
            .bridge(&["get_object_info"]),
        Capability::new("scene.create_object", "create", create_object)
            .summary("Add a primitive (cube, sphere, cylinder, cone, torus, plane, monkey, ...) or an empty")
            .description("Adds one object at a location with optional rotation (degrees unless rotation_unit is radians), scale and size.")
            .tags(&["add", "create", "primitive", "mesh", "cube", "sphere", "cylinder", "plane"])
            .aliases(&["blender_create_object", "create_object"])
            .examples(&["add a cube", "create a sphere", "put a plane on the floor"])
            .mutates()
            .bridge(&["create_object"]),
        Capability::new("scene.modify_object", "object", modify_object)
            .summary("Move, rotate, scale, rename, show or hide an existing object")
            .description("Changes the transform, name or visibility of one object; only the given fields change.")
            .tags(&["move", "rotate", "scale", "transform", "rename", "hide", "show"])
            .aliases(&["blender_modify_object", "modify_object", "transform_object"])
            .examples(&["move the cube up", "rotate the monkey 45 degrees", "make it bigger"])
            .mutates()
            .bridge(&["modify_object"]),
        Capability::new("scene.delete_object", "mutate", delete_object)
            .summary("Delete one object by name")
            .description("Removes one object from the scene. Destructive: the object is gone.")
            .tags(&["delete", "remove", "destroy", "object"])
            .aliases(&["blender_delete_object", "delete_object"])
            .examples(&["delete the default cube", "remove the light"])
            .mutates()
            .bridge(&["delete_object"]),
        Capability::new("scene.set_material", "material", set_material)
            .summary("Give an object a material: colour, metal, roughness, emission or a preset like chrome")
            .description("Creates or updates a Principled BSDF material and assigns it. Colours: hex or name (sRGB), or linear 0..1 channels. Presets (chrome, gold, plastic, ...) set sensible values that explicit fields override.")
            .tags(&["material", "color", "colour", "shader", "metal", "chrome", "gold", "roughness", "emission"])
            .aliases(&["blender_set_material", "set_material", "apply_material"])
            .examples(&["make it look like chrome", "paint the cube red", "make the sphere glow"])
            .mutates()
            .bridge(&["set_material"]),
    ]
}

capstan_sdk::export_pack!(capabilities);
