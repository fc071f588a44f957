error("no location", 0)
