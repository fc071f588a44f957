local fs = {}
do
  local x = 1
  fs.get = function() return x end
  fs.set = function(v) x = v end
end
fs.set(42)
print(fs.get())
