print(hasattr((), "__class__"))
