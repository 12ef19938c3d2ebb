import re._parser as p
p.sys
