local value = nil
assert(value, "value must not be nil")
