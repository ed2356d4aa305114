-- tests: tables, sort, concat, ipairs/pairs, integer/float keys
local function check(c, msg) if not c then error("FAILED: " .. msg) end end
local t = {5, 3, 8, 1}
table.sort(t)
check(table.concat(t, ",") == "1,3,5,8", "sort")
table.insert(t, 2, 7)
check(t[2] == 7 and #t == 5, "insert")
check(table.remove(t) == 8, "remove")
local k = 0
for _, v in pairs({a = 1, b = 2, c = 3}) do k = k + v end
check(k == 6, "pairs")
local s = 0
for i, v in ipairs({10, 20, 30}) do s = s + i * v end
check(s == 140, "ipairs")
check(select("#", table.unpack({1, 2, 3})) == 3, "unpack")
local m = {}
m[1.0] = "a"; check(m[1] == "a", "float key")
check(math.max(3, 9, 2) == 9 and math.floor(3.7) == 3, "math")
check(7 // 2 == 3 and 7 % 3 == 1 and 2 ^ 10 == 1024, "arith")
print("tables ok")
