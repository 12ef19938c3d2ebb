import dataclasses
fr = dataclasses.inspect.currentframe()
fr.f_back.f_globals
