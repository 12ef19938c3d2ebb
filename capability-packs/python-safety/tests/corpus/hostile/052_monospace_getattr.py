# expect: dynamic-attribute
import bpy
𝚐𝚎𝚝𝚊𝚝𝚝𝚛(bpy, "o" + "ps").wm.quit_blender()
