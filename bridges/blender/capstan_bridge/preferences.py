"""The add-on's own settings (Edit > Preferences > Add-ons > capstan bridge).

`allow_execute_python` is the add-on's switch for `execute_python`: off by default, and
independent of the host's CAPSTAN_ALLOW_EXEC, so the person running Blender decides
whether this Blender runs Python sent by capstan. Headless Blender (no preferences UI)
uses the environment variable CAPSTAN_BRIDGE_ALLOW_EXEC=1 instead.
"""

_registered = None


def register(package):
    global _registered
    import bpy

    class CapstanBridgePreferences(bpy.types.AddonPreferences):
        bl_idname = package

        allow_execute_python: bpy.props.BoolProperty(
            name="Allow execute_python",
            description="Run Python scripts that capstan's safety checker accepted (in a restricted namespace)",
            default=False,
        )

        def draw(self, context):
            self.layout.prop(self, "allow_execute_python")

    bpy.utils.register_class(CapstanBridgePreferences)
    _registered = (package, CapstanBridgePreferences)


def unregister():
    global _registered
    if _registered is not None:
        import bpy

        bpy.utils.unregister_class(_registered[1])
        _registered = None


def allow_execute_python():
    """The preference's value, or None when the add-on's preferences are not registered."""
    if _registered is None:
        return None
    import bpy

    addon = bpy.context.preferences.addons.get(_registered[0])
    return bool(addon and addon.preferences and addon.preferences.allow_execute_python)
