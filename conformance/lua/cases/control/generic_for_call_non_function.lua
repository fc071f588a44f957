for k in 42 do end
