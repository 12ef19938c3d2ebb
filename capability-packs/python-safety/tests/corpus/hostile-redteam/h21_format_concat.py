def f(): pass
tmpl = "{0." + "__glo" + "bals__}"
print(tmpl.format(f))
