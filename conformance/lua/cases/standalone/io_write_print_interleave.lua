for i = 1, 3 do
  io.write("w", i, " ")
  print("p" .. i)
end
io.write("end\n")
