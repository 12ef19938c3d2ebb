# -*- coding: utf-7 -*-
# +AAo-import os+AAo-os.system("id")
x = 1
