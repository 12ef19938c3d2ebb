# expect: dynamic-attribute
import enum
class Meta(enum.EnumType):
    pass
