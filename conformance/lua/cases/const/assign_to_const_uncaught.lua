local limit <const> = 10
limit = 11
