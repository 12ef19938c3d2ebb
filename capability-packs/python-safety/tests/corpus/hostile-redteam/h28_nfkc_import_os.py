import ｏｓ
ｏｓ.system("id")
