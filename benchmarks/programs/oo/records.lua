-- String-keyed records: employee records as tables with string fields,
-- an index by name built from "emp" .. i, fields read and written through
-- variable keys (r[field]), groups keyed by strings made from numbers, a
-- sorted report with string.format; a Roster class holds it all.
local DEPTS = {"sales", "research", "support", "finance", "legal", "ops", "admin"}
local CITIES = {"Oslo", "Lima", "Pune", "Kobe", "Graz"}
local FIELDS = {"salary", "age", "bonus"}

local Roster = {}
Roster.__index = Roster

function Roster.new()
  return setmetatable({records = {}, by_name = {}, groups = {}}, Roster)
end

function Roster:add(i)
  local record = {
    name = "emp" .. i,
    dept = DEPTS[i % #DEPTS + 1],
    city = CITIES[i % #CITIES + 1],
    salary = 30000 + (i * 7919) % 50000,
    age = 20 + (i * 31) % 45,
    bonus = 0,
  }
  table.insert(self.records, record)
  self.by_name[record.name] = record
  return record
end

function Roster:adjust(round)
  for i, record in ipairs(self.records) do
    local field = FIELDS[(i + round) % #FIELDS + 1]
    record[field] = record[field] + (i + round) % 3
  end
end

function Roster:promote(ids, rate)
  local found = 0
  for _, id in ipairs(ids) do
    local record = self.by_name["emp" .. id]
    if record ~= nil then
      record.salary = record.salary + record.salary * rate // 100
      record.bonus = record.bonus + rate
      found = found + 1
    end
  end
  return found
end

function Roster:group()
  local groups = {}
  for _, record in ipairs(self.records) do
    local key = record.dept .. "/" .. record.city .. "/" .. record.age // 10
    local group = groups[key]
    if group == nil then
      group = {key = key, count = 0, total = 0, oldest = 0}
      groups[key] = group
    end
    group.count = group.count + 1
    group.total = group.total + record.salary + record.bonus
    if record.age > group.oldest then
      group.oldest = record.age
    end
  end
  self.groups = groups
end

function Roster:report()
  local keys = {}
  for key in pairs(self.groups) do
    table.insert(keys, key)
  end
  table.sort(keys)
  local lines = {}
  for _, key in ipairs(keys) do
    local group = self.groups[key]
    table.insert(lines, string.format("%-24s %4d %10d %3d", key, group.count,
                                      group.total // group.count, group.oldest))
  end
  return table.concat(lines, "\n")
end

local roster = Roster.new()
for i = 1, 4000 do
  roster:add(i)
end
local promoted = 0
local length = 0
for round = 1, 28 do
  roster:adjust(round)
  local ids = {}
  for k = 1, 500 do
    ids[k] = (k * round * 37) % 4500
  end
  promoted = promoted + roster:promote(ids, round)
  roster:group()
  length = length + #roster:report()
end
local checksum = 0
for _, record in ipairs(roster.records) do
  checksum = (checksum + record.salary + record.age * 3 + record.bonus) % 1000000007
end
print(string.format("records: promoted = %d, report = %d, checksum = %d", promoted, length, checksum))
