;;; local a = 1; local b = 2;
print(a, b);
do ; end
print((a + b));
