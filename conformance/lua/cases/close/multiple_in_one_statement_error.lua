print(load("local a <close>, b <close> = nil, nil"))
