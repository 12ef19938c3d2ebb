help("modules")
