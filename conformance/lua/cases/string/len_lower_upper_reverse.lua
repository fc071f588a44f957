print(string.len("abc"), ("\0\0"):len(), (""):len())
print(string.lower("HeLLo 123 ÀB"), string.upper("hello world!"))
print(string.reverse("abc"), (""):reverse(), ("a"):reverse(), ("ab\0cd"):reverse() == "dc\0ba")
