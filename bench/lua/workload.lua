-- CPU-bound Lua workload for the pathcov benchmark: prints a checksum.
-- Usage: lua workload.lua N  (N rounds)
local N = tonumber(arg and arg[1]) or 10
local h = 0
local function mix(x) h = (h * 31 + x) % 4294967291 end
local function mixs(s) for i = 1, #s, 7 do mix(s:byte(i)) end end

-- integer and float arithmetic: a small LCG, spectral-norm style loops
local function A(i, j) local ij = i + j - 1; return 1.0 / (ij * (ij - 1) * 0.5 + i) end
local function Av(x, y, n) for i = 1, n do local a = 0; for j = 1, n do a = a + x[j] * A(i, j) end; y[i] = a end end
local function spectral(n)
  local u, v = {}, {}
  for i = 1, n do u[i] = 1 end
  for _ = 1, 4 do Av(u, v, n); Av(v, u, n) end
  local vBv, vv = 0, 0
  for i = 1, n do vBv = vBv + u[i] * v[i]; vv = vv + v[i] * v[i] end
  return math.sqrt(vBv / vv)
end

-- tables: objects with metatables, sort with a comparator
local Point = {}
Point.__index = Point
Point.__add = function(a, b) return setmetatable({x = a.x + b.x, y = a.y + b.y}, Point) end
Point.__lt = function(a, b) return a.x * a.x + a.y * a.y < b.x * b.x + b.y * b.y end
function Point.new(x, y) return setmetatable({x = x, y = y}, Point) end

local seed = 42
local function rnd(m) seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % m end

local words = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"}

-- coroutines: a generator pipeline
local function gen(n) return coroutine.wrap(function() for i = 1, n do coroutine.yield(i * i % 97) end end) end

for round = 1, N do
  -- points
  local pts = {}
  for i = 1, 3000 do pts[i] = Point.new(rnd(1000) - 500, rnd(1000) - 500) end
  table.sort(pts)
  local acc = Point.new(0, 0)
  for i = 1, #pts, 3 do acc = acc + pts[i] end
  mix(acc.x % 1000003); mix(acc.y % 1000003)
  -- strings: build, format, gsub, find, patterns
  local parts = {}
  for i = 1, 2000 do
    parts[#parts + 1] = string.format("%s-%d:%05.2f", words[rnd(#words) + 1], rnd(100000), rnd(10000) / 7)
  end
  local s = table.concat(parts, " ")
  local count = 0
  for w, n in s:gmatch("(%a+)%-(%d+)") do if #w > 4 then count = count + tonumber(n) % 13 end end
  mix(count)
  local t = s:gsub("(%a+)", function(w) return w:upper():reverse() end)
  mixs(t:sub(1, 4000))
  mix(#(s:rep(3, ",")))
  -- integer division, modulo, bit ops
  local x = 0
  for i = 1, 20000 do x = (x ~ (i << 3)) + (i // 7) - (i % 5) end
  mix(x % 1000003)
  -- coroutines
  local sum = 0
  for v in gen(5000) do sum = sum + v end
  mix(sum)
  -- closures and varargs
  local function adder(k) return function(...) local s2 = k; for _, v in ipairs({...}) do s2 = s2 + v end; return s2 end end
  local f = adder(round)
  for i = 1, 3000 do mix(f(i, i + 1, i + 2) % 65521) end
  -- float math
  mix(math.floor(spectral(60) * 1e6))
  -- string.pack / utf8
  local packed = string.pack("<i4d s1", round, round / 3, "x" .. round)
  mixs(packed)
  mix(utf8.len("h\u{e9}llo w\u{f6}rld " .. round))
  -- goto
  local i = 0
  ::again:: i = i + 1
  if i < 1000 then goto again end
  mix(i)
end
print(string.format("checksum %d", h))
