print(("hello"):match("(l)%1"), ("abcabc"):match("(abc)%1"), ("'quoted'"):match("(['\"])(.-)%1"))
print(("aXbXc"):gsub("(X)(.)%1", "[%2]"))
print(("abba"):match("(a)(b)%2%1"))
