-- A NaN base keeps its sign in a power, but for an odd integer exponent
-- (found by the campaign: 970012478, 970014281).
local nn, pn = 0/0, -(0/0)
print(nn^7, pn^7, nn^-1, pn^-3, nn^-3, nn^2, nn^4, nn^0.5, pn^0.5)
print(nn^math.huge, 2^nn, 2^pn, 1^nn, nn^0, nn^nn, pn^nn, nn^pn)
print((5.5 % -0.0)^7, (-8)^(1/3), (-2)^0.5)
local e = 3.0
print(nn^e, pn^e, nn^(e + 1))
