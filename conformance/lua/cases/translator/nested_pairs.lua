local t = {1, 2}
local n = 0
for k0, v0 in pairs(t) do
  for k1, v1 in pairs(t) do
    for k2, v2 in pairs(t) do
      for k3, v3 in pairs(t) do
        for k4, v4 in pairs(t) do
          for k5, v5 in pairs(t) do
            for k6, v6 in pairs(t) do
              for k7, v7 in pairs(t) do
                for k8, v8 in pairs(t) do
                  for k9, v9 in pairs(t) do
                    for k10, v10 in pairs(t) do
                      for k11, v11 in pairs(t) do
                        n = n + v0 * k11
                      end
                    end
                  end
                end
              end
            end
          end
        end
      end
    end
  end
end
print(n)
