# expect: implicit-code
def __del__(self):
    print("collected")
