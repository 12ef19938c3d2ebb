# expect: dangerous-builtin
print(𝒐𝒑𝒆𝒏("/etc/shadow").read())
