local nan = 0/0
print(nan == nan, nan ~= nan, nan < 1, nan > 1, nan <= nan, 1 < nan)
local t = {}
print(pcall(function() t[nan] = 1 end))
print(rawequal(nan, nan), nan ~= nan and "nan is not itself")
