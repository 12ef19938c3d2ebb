# expect: dangerous-name,private-attribute
import statistics
print(statistics.random._os.popen("id").read())
