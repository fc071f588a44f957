print(undefined_global.field)
