local function classify(n)
  if n < 0 then return "neg" elseif n == 0 then return "zero" elseif n < 10 then return "small" else return "big" end
end
print(classify(-5), classify(0), classify(5), classify(50))
if nil then print(1) elseif false then print(2) else print(3) end
if 0 then print("0 is true") end
if "" then print("empty string is true") end
