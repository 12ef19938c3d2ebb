from bpy.types import GizmoGroup
