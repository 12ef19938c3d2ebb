# expect: unsupported-syntax
async def main():
    return 1
