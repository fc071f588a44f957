local function escape_html(s)
  return (s:gsub("[<>&\"]", {["<"] = "&lt;", [">"] = "&gt;", ["&"] = "&amp;", ['"'] = "&quot;"}))
end
local buf = {}
for _, item in ipairs({"a<b", "x & y", '"quoted"'}) do buf[#buf + 1] = "<li>" .. escape_html(item) .. "</li>" end
print(table.concat(buf, "\n"))
