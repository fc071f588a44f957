-- line comment
--[[ block
comment ]] print("after block")
--[==[ level
]] still comment ]==] print("after level comment")
print("x") -- trailing
---[[ not a block comment
print("visible")
--]]
