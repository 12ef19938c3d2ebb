# expect: blender-persistence
import decimal
decimal.getcontext().prec = 3
