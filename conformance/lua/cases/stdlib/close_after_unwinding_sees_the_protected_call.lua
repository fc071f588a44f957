-- A <close> handler run by an error's unwinding runs after the erroring
-- frames are gone: its caller is the protected call that caught the error.
local function closer(name, log)
  return setmetatable({}, {__close = function(_, err)
    local caller = debug.getinfo(2, "nS")
    log[#log + 1] = string.format("%s closed (err=%s) called by %s %s",
                                  name, type(err) == "table" and err.code or tostring(err), caller.what, tostring(caller.name))
  end})
end

local function transfer(account, amount, log)
  local lock <close> = closer("lock", log)
  local audit <close> = closer("audit", log)
  if amount > account.balance then
    error({code = "insufficient", need = amount - account.balance})
  end
  account.balance = account.balance - amount
end

local log = {}
local ok, err = pcall(transfer, {balance = 10}, 25, log)
print(ok, type(err), err.code, err.need)
for _, line in ipairs(log) do print(line) end

-- the same inside a coroutine, where the protected call is inside it
log = {}
local co = coroutine.create(function ()
  local ok, err = pcall(transfer, {balance = 1}, 2, log)
  coroutine.yield(ok, err.code)
  return "done"
end)
print(coroutine.resume(co))
print(coroutine.resume(co))
for _, line in ipairs(log) do print(line) end

-- a normal exit still closes from inside the function
log = {}
print(pcall(transfer, {balance = 10}, 5, log))
for _, line in ipairs(log) do print(line) end
