// CPU-bound RE2 workload for the pathcov benchmark: regular expressions over
// generated log-like lines. Usage: re2_bench N. Prints a checksum.
#include "re2/re2.h"
#include "re2/set.h"
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static unsigned long long seed = 777;
static unsigned rnd(unsigned m) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(seed >> 33) % m;
}
static unsigned long long h = 1469598103934665603ULL;
static void mix(const std::string &s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
}
static void mixn(long long v) { mix(std::to_string(v)); }

static const char *kWords[] = {"GET", "POST", "error", "warning", "user", "Alice", "bob",
                               "connect", "timeout", "disk", "cache", "MISS", "hit"};

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 4;
  std::vector<std::string> lines;
  for (int i = 0; i < 20000; ++i) {
    std::string l = std::to_string(2000 + rnd(30)) + "-0" + std::to_string(1 + rnd(9)) + "-1" +
                    std::to_string(rnd(10)) + " " + std::to_string(rnd(24)) + ":" +
                    std::to_string(10 + rnd(50)) + " ";
    int k = 3 + rnd(8);
    for (int j = 0; j < k; ++j) {
      l += kWords[rnd(13)];
      l += rnd(3) ? " " : "=";
      if (rnd(4) == 0) l += std::to_string(rnd(100000)) + " ";
    }
    if (rnd(10) == 0) l += "mail " + std::string(kWords[rnd(13)]) + "@example.org ";
    if (rnd(15) == 0) l += "ip 10." + std::to_string(rnd(256)) + ".0." + std::to_string(rnd(256));
    lines.push_back(l);
  }
  RE2 date("(\\d{4})-(\\d\\d)-(\\d\\d) (\\d+):(\\d+)");
  RE2 kv("(\\w+)=(\\w+)");
  RE2 mail("([a-zA-Z]+)@([a-z]+\\.[a-z]{2,3})");
  RE2 ip("\\b(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\b");
  RE2 errs("(?i)(error|warn(ing)?|timeout)");
  RE2 num("(\\d+)");
  RE2 alt("(GET|POST) (user|cache|disk)");
  RE2 anchored("^\\d+-0[1-5]");
  RE2 lazy("u.*?r");
  RE2 cls("[^a-z0-9 =@.:-]+");
  RE2::Set set(RE2::DefaultOptions, RE2::UNANCHORED);
  set.Add("Alice.*bob", nullptr);
  set.Add("MISS [0-9]+", nullptr);
  set.Add("connect timeout", nullptr);
  set.Add("(?i)disk.*error", nullptr);
  set.Compile();
  for (int round = 0; round < N; ++round) {
    long long c = 0;
    for (const std::string &l : lines) {
      int y, mo, d, hh, mm;
      if (RE2::PartialMatch(l, date, &y, &mo, &d, &hh, &mm)) c += y + mo + d + hh + mm;
      re2::StringPiece in(l);
      std::string k, v;
      while (RE2::FindAndConsume(&in, kv, &k, &v)) c += k.size() * 3 + v.size();
      std::string u, dom;
      if (RE2::PartialMatch(l, mail, &u, &dom)) c += u.size() + dom.size();
      if (RE2::PartialMatch(l, ip)) c += 11;
      if (RE2::PartialMatch(l, errs)) c += 5;
      if (RE2::PartialMatch(l, alt)) c += 7;
      if (RE2::PartialMatch(l, anchored)) c += 2;
      if (RE2::PartialMatch(l, lazy)) c += 1;
      if (RE2::PartialMatch(l, cls)) c += 13;
      std::vector<int> hits;
      if (set.Match(l, &hits)) c += hits.size() * 17;
      if ((round + l.size()) % 4 == 0) {
        std::string t = l;
        c += RE2::GlobalReplace(&t, num, "<\\1>");
        mix(t);
      }
    }
    mixn(c);
  }
  printf("checksum %llu\n", h);
  return 0;
}
