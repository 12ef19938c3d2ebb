def g(): yield 1
print(g().ｇｉ_ｆｒａｍｅ)
