"""What the shared core needs to know about the application a bridge serves.

Each app's package holds one `App` (its `app.py`): the name the protocol uses (the
catalog's and /ping's `app`, the runtime file's folder `run/<name>/`, the output
folder `output/<name>/`), where its commands are declared, and the code it answers with
when the app itself raises. Nothing else in the core names an application.
"""


class App:
    def __init__(self, name, display_name, commands_package, declared_in, app_error, data_noun="scene data"):
        self.name = name
        self.display_name = display_name
        self.commands_package = commands_package
        self.declared_in = declared_in
        self.app_error = app_error
        self.data_noun = data_noun
