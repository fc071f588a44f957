do
  goto done
  print("skipped")
  local y = 1
  ::done::
end
print("after")
