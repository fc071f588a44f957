print(("aaa"):match("a*"), ("aaa"):match("a+"), ("aaa"):match("a-"), ("aaa"):match("a?"))
print(("baaa"):match("ba*"), ("b"):match("ba+"), ("baaac"):match("ba-c"), ("bc"):match("ba?c"))
print(("<a><b>"):match("<(.*)>"), ("<a><b>"):match("<(.-)>"))
print(("xyz"):match("x?y?z?w?"), ("aaab"):match("a-b"), ("ab"):match("a*?"))
