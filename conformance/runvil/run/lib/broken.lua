-- A library that fails while it loads.
local parts = nil
return parts.first
