# expect: parse-error
print "hello"
