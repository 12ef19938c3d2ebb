data = input("password? ")
