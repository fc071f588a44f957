print("a\nb")
print("x\ay" == "x\7y", "\b" == "\8", "\f" == "\12", "\v" == "\11", "\r" == "\13")
print(("\a\b\f\n\r\t\v\\\"\'"):byte(1, -1))
