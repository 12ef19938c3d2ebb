# expect: introspection
def gen():
    yield "s3cret"
print(gen().gi_code.co_consts)
