print(ipairs())
