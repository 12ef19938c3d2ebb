type Alias = int
print(Alias)
