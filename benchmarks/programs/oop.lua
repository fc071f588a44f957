-- Method calls through __index: a class (metatable with __index = itself),
-- a subclass whose methods fall back to the base class through a second
-- __index, constructors, self field reads and writes, and obj:method() calls.
local Account = {}
Account.__index = Account

function Account.new(id, balance)
  return setmetatable({id = id, balance = balance, ops = 0}, Account)
end

function Account:deposit(v)
  self.balance = self.balance + v
  self.ops = self.ops + 1
end

function Account:withdraw(v)
  if v > self.balance then
    return false
  end
  self.balance = self.balance - v
  self.ops = self.ops + 1
  return true
end

function Account:get_balance()
  return self.balance
end

local Savings = setmetatable({}, {__index = Account})
Savings.__index = Savings

function Savings.new(id, balance, rate)
  local self = Account.new(id, balance)
  self.rate = rate
  return setmetatable(self, Savings)
end

function Savings:add_interest()
  self:deposit(self:get_balance() * self.rate // 1000)
end

local function run(rounds)
  local accounts = {}
  for i = 1, 100 do
    if i % 2 == 0 then
      accounts[i] = Savings.new(i, 1000 + i, i % 9)
    else
      accounts[i] = Account.new(i, 1000 + i)
    end
  end
  local failed = 0
  for r = 1, rounds do
    for i = 1, #accounts do
      local a = accounts[i]
      a:deposit((r + i) % 50)
      if not a:withdraw((r * i) % 97) then
        failed = failed + 1
      end
    end
    if r % 10 == 0 then
      for i = 2, #accounts, 2 do
        accounts[i]:add_interest()
      end
    end
  end
  local total, ops = 0, 0
  for i = 1, #accounts do
    total = total + accounts[i]:get_balance()
    ops = ops + accounts[i].ops
  end
  return total, ops, failed
end

print(string.format("total = %d, ops = %d, failed = %d", run(8000)))
