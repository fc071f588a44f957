print(string.format("100%%"), string.format("%%d"), string.format("%d%%", 50))
