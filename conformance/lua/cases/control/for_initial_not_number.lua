for i = {}, 10 do end
