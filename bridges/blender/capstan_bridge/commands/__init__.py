"""Typed primitive commands over scene data. One function per catalog command; the
registry below must match the catalog exactly (a test checks both directions)."""

from . import animation, camera, lighting, materials, python_exec, render, scene, world
from .errors import CommandError

REGISTRY = {
    "get_scene_info": scene.get_scene_info,
    "get_object_info": scene.get_object_info,
    "create_object": scene.create_object,
    "modify_object": scene.modify_object,
    "delete_object": scene.delete_object,
    "set_material": materials.set_material,
    "create_light": lighting.create_light,
    "set_world": world.set_world,
    "set_camera": camera.set_camera,
    "set_render_settings": render.set_render_settings,
    "render_image": render.render_image,
    "insert_keyframe": animation.insert_keyframe,
    "execute_python": python_exec.execute_python,
}

__all__ = ["REGISTRY", "CommandError"]
