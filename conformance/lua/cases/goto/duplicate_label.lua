local function try(src) local f, err = load(src); print(type(f), err) end
try("::a:: ::a::")
try("::a:: do ::a:: end")
-- a nested function has its own label namespace
try("::a:: local function f() ::a:: end")
