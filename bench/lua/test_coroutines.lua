-- tests: coroutines and closures
local function check(c, msg) if not c then error("FAILED: " .. msg) end end
local co = coroutine.create(function(a, b)
  local c = coroutine.yield(a + b)
  local d = coroutine.yield(c * 2)
  return d + 1
end)
local _, x = coroutine.resume(co, 1, 2); check(x == 3, "yield 1")
_, x = coroutine.resume(co, 5); check(x == 10, "yield 2")
_, x = coroutine.resume(co, 9); check(x == 10 and coroutine.status(co) == "dead", "return")
local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
check(gen() + gen() + gen() == 6, "wrap")
local function counter() local n = 0; return function() n = n + 1; return n end end
local c = counter(); c(); check(c() == 2, "closure")
print("coroutines ok")
