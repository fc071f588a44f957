-- A library for the require cases: it reads the requiring section's list.
local listing = {}

function listing.roles()
  local roles = {}
  for i = 1, #messages do roles[i] = messages[i].role end
  return table.concat(roles, ',')
end

listing.loaded_with = #messages
return listing
