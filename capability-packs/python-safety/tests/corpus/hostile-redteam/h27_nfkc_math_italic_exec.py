𝑒𝑥𝑒𝑐("import os")
