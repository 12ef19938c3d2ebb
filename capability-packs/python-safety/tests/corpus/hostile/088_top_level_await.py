# expect: unsupported-syntax,parse-error
await main()
