print("double", 'single', "it's", 'say "hi"')
print("tab\tend", "a\\b", "q\"q", 'q\'q')
print(#"", #"abc", #'\0', #"a\0b")
