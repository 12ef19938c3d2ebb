import textwrap
textwrap.re.copyreg.dispatch_table
