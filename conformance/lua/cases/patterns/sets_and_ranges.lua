print(("hello123"):match("[a-z]+"), ("ABCdef"):match("[A-C]+"), ("x-y"):match("[a%-z]+"))
print(("abc123"):match("[%d]+"), ("a]b"):match("[]]"), ("a^b"):match("[b^]+"))
print(("hello"):match("[^aeiou]+"), ("123abc"):match("[^%d]+"), ("a-b"):match("[-]"))
print(("ab-"):match("[a-]+"), ("xyz"):match("[%a_][%w_]*"), ("_id9 x"):match("[%a_][%w_]*"))
