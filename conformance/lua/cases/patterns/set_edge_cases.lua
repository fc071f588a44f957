print(("]"):match("[]]"), ("^"):match("[%^]"), ("a"):match("[^]a]"), ("b"):match("[^]a]"))
print(("z"):match("[a-]"), ("-"):match("[a-]"), ("%"):match("[%%]"), ("5"):match("[%a%d]"))
print(("-"):match("[%-]"), ("c"):match("[a-c-e]"), ("-"):match("[a-c-e]"), ("d"):match("[a-c-e]"))
