from bpy.utils import previews
coll = previews.new()
thumb = coll.load("key", "/home/user/.ssh/id_ed25519", 'IMAGE')
print(thumb.image_size)
