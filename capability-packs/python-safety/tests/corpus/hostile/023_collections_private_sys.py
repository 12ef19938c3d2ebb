# expect: private-attribute,dangerous-name
import collections
collections._sys.modules["subprocess"].Popen(["sh"])
