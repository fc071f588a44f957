local vals = {0, 1, -1, 0x5555, math.maxinteger, math.mininteger, 123456789}
for _, a in ipairs(vals) do
  for _, b in ipairs({3, -7, 0xFF}) do
    assert(a ~ b ~ b == a)
    assert(~(a & b) == (~a | ~b))
    assert((a | b) - (a & b) == (a ~ b))
  end
end
print("identities ok")
