import json.tool
json.tool.sys
