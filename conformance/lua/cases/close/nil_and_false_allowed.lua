do
  local a <close> = nil
  local b <close> = false
  print("ok with nil and false")
end
