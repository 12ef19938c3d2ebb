async def c(): pass
co = c()
print(co.cr_frame.f_globals)
