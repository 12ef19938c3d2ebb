# expect: blender-file-access
def read(collection, path):
    return collection.load(path)
