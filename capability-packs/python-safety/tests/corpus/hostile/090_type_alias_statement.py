# expect: unsupported-syntax,parse-error
type Vec = tuple[float, float, float]
