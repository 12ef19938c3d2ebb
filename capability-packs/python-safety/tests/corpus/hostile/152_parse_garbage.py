# expect: parse-error
}}} ;; ::: @@ $$
