x = 3
print(f"{x:{eval('5')}}")
