-- tests: metatables
local function check(c, msg) if not c then error("FAILED: " .. msg) end end
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({v = a.v + b.v}, V) end
V.__eq = function(a, b) return a.v == b.v end
V.__tostring = function(a) return "V(" .. a.v .. ")" end
V.__len = function(a) return a.v end
local a, b = setmetatable({v = 1}, V), setmetatable({v = 2}, V)
check((a + b).v == 3, "__add")
check(a + b == setmetatable({v = 3}, V), "__eq")
check(tostring(a) == "V(1)", "__tostring")
check(#b == 2, "__len")
local d = setmetatable({}, {__index = function(_, k) return k * 2 end})
check(d[21] == 42, "__index function")
print("metatables ok")
