local s = ("abc"):gsub("%w", function() return {} end)
