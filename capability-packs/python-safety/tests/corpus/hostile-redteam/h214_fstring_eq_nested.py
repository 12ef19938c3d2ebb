print(f"{f'{exec(chr(49))}'}")
