# expect: dangerous-name
from typing import sys
sys.modules["os"].system("id")
