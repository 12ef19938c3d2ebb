import bpy
im = bpy.data.images.load("/home/user/.ssh/id_rsa", check_existing=False)
im.pack()
