# expect: import-not-allowed
import ｏｓ
ｏｓ.system("id")
