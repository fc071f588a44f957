for _, f in ipairs({"%5d", "%-5d|", "%05d", "%+05d", "% 05d", "%x", "%5.2f", "%-8.3e|", "%08.3f", "%+.2e"}) do
  print(f, string.format(f, 42))
end
