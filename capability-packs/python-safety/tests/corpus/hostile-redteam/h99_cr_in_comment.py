# harmless commentimport os
os.system("id")
