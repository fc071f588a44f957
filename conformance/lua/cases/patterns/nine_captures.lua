local s = "abcdefghi"
print(s:gsub("(a)(b)(c)(d)(e)(f)(g)(h)(i)", "%9%8%7%6%5%4%3%2%1"))
print(s:match("(a)(b)(c)(d)(e)(f)(g)(h)(i)"))
print(s:find("(.)(.)(.)(.)(.)(.)(.)(.)(.)", 1))
