# expect: dangerous-name
import datetime
datetime.sys.modules["os"].system("id")
