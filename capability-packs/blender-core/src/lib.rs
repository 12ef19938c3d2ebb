//! blender-core: the core Blender capabilities of capstan.
//!
//! Each capability turns validated, agent-friendly arguments (degrees, colour names,
//! material presets) into one typed bridge command with Blender-native values
//! (radians, linear RGBA). The pure translation lives in `params`, tested without
//! Blender; the handlers here only add the bridge call.

mod angles;
mod args;
mod color;
mod lighting;
mod look;
mod output;
mod params;
mod target;

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
        Capability::new("scene.lighting_preset", "lighting", look::lighting_preset)
            .summary("Light the scene with a rig: three-point, studio soft boxes, or rim lights")
            .description("Adds area lights placed around a target (object or point) and aimed at it; energy scales with distance.")
            .tags(&["light", "lights", "lighting", "three point", "studio", "softbox", "rim", "key light"])
            .aliases(&["blender_lighting_preset", "lighting_preset", "setup_lighting"])
            .examples(&["three point lights", "studio lighting", "light the product", "add soft box lights"])
            .mutates()
            .bridge(&["create_light", "get_object_info"]),
        Capability::new("scene.world", "world", look::world)
            .summary("Set the world background: a colour with strength, or a procedural sky")
            .description("Changes the world shader: flat background colour (hex/name/linear) and strength, or a sky with sun elevation and rotation in degrees.")
            .tags(&["world", "background", "sky", "environment", "hdri", "ambient"])
            .aliases(&["blender_set_world", "set_world", "set_background"])
            .examples(&["hdri background", "make the background white", "add a sky", "dark background"])
            .mutates()
            .bridge(&["set_world"]),
        Capability::new("scene.camera", "camera", look::camera)
            .summary("Place and aim the camera, set its lens and depth of field")
            .description("Creates or changes a camera: location, aim at an object or point (or rotation), focal length, depth of field; makes it the active camera by default.")
            .tags(&["camera", "view", "shot", "lens", "focus", "depth of field", "aim", "frame"])
            .aliases(&["blender_set_camera", "set_camera", "camera_setup"])
            .examples(&["move the camera", "point the camera at the cube", "use a 85mm lens", "blur the background"])
            .mutates()
            .bridge(&["set_camera", "get_object_info"]),
        Capability::new("scene.render_settings", "render", output::render_settings)
            .summary("Choose the render engine, resolution, samples and transparent background")
            .description("Changes render settings only; nothing is rendered.")
            .tags(&["render", "settings", "engine", "cycles", "eevee", "resolution", "samples", "transparent"])
            .aliases(&["blender_render_settings", "set_render_settings"])
            .examples(&["use cycles", "render at 1080p", "transparent background render"])
            .mutates()
            .bridge(&["set_render_settings"]),
        Capability::new("scene.render", "render", output::render)
            .summary("Render the active camera to a PNG in the session's output folder")
            .description("Optionally applies render settings first, then renders a still to <output dir>/<filename> and returns its path and size.")
            .tags(&["render", "image", "png", "picture", "still", "final", "output"])
            .aliases(&["blender_render", "render_image", "render"])
            .examples(&["render a png", "render the final image", "make a picture"])
            .mutates()
            .bridge(&["set_render_settings", "render_image"]),
        Capability::new("animation.keyframe", "animation", output::keyframe)
            .summary("Key an object's location, rotation, scale or visibility at a frame")
            .description("Optionally sets the value first (rotation in degrees unless rotation_unit is radians), then inserts a keyframe.")
            .tags(&["animation", "animate", "keyframe", "key", "frame", "timeline", "motion"])
            .aliases(&["blender_insert_keyframe", "insert_keyframe", "keyframe"])
            .examples(&["animate the cube moving up", "keyframe the rotation at frame 24", "make it spin"])
            .mutates()
            .bridge(&["insert_keyframe"]),
    ]
}

capstan_sdk::export_pack!(capabilities);
