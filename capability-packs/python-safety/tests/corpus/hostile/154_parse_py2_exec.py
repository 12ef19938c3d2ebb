# expect: parse-error
exec "import os"
