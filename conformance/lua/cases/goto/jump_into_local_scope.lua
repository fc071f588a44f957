local function try(src) local f, err = load(src); print(type(f), err) end
try("goto f; local x; ::f:: print(x)")
-- a label at the end of a block is outside the scope of the block's locals
try("do goto f; local x; ::f:: end")
try("repeat goto cont; local x; ::cont:: until x")
