// CPU-bound tinyxml2 workload for the pathcov benchmark: builds N generated
// XML documents as text, parses, walks, queries, edits and prints them.
// Usage: tinyxml2_bench N. Prints a checksum of everything it printed.
#include "tinyxml2.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace tinyxml2;

static unsigned long long seed = 12345;
static unsigned rnd(unsigned m) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(seed >> 33) % m;
}
static unsigned long long h = 1469598103934665603ULL;
static void mix(const char *s, size_t n) {
  for (size_t i = 0; i < n; ++i) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
}
static void mixn(long long v) { char b[32]; int n = snprintf(b, sizeof b, "%lld", v); mix(b, n); }

static const char *kNames[] = {"item", "entry", "record", "node", "value", "group"};

static void genElement(std::string &out, int depth) {
  const char *name = kNames[rnd(6)];
  out += "<"; out += name;
  int attrs = rnd(4);
  for (int a = 0; a < attrs; ++a) {
    out += " a"; out += std::to_string(a); out += "=\"";
    switch (rnd(4)) {
    case 0: out += std::to_string(rnd(100000)); break;
    case 1: out += std::to_string(rnd(1000) / 7.0); break;
    case 2: out += "true"; break;
    default: out += "text &amp; more &lt;"; out += std::to_string(rnd(50)); out += "&gt;"; break;
    }
    out += "\"";
  }
  if (depth > 4 || rnd(5) == 0) { out += "/>"; return; }
  out += ">";
  int kids = 1 + rnd(6);
  for (int k = 0; k < kids; ++k) {
    switch (rnd(6)) {
    case 0: out += "some text "; out += std::to_string(rnd(1000)); break;
    case 1: out += "<!-- comment "; out += std::to_string(k); out += " -->"; break;
    case 2: out += "<![CDATA[raw <data> "; out += std::to_string(rnd(99)); out += "]]>"; break;
    default: genElement(out, depth + 1); break;
    }
  }
  out += "</"; out += name; out += ">";
}

static long long walk(XMLElement *e, int depth) {
  long long n = 0;
  for (; e; e = e->NextSiblingElement()) {
    ++n;
    int iv = 0; double dv = 0; bool bv = false;
    if (e->QueryIntAttribute("a0", &iv) == XML_SUCCESS) n += iv % 7;
    if (e->QueryDoubleAttribute("a1", &dv) == XML_SUCCESS) n += (long long)dv % 5;
    if (e->QueryBoolAttribute("a2", &bv) == XML_SUCCESS) n += bv;
    if (const char *t = e->GetText()) n += strlen(t);
    if (depth % 2 == 0) e->SetAttribute("seen", depth);
    n += walk(e->FirstChildElement(), depth + 1);
  }
  return n;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 10;
  for (int round = 0; round < N; ++round) {
    std::string text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<root>";
    for (int i = 0; i < 400; ++i) genElement(text, 0);
    text += "</root>";
    XMLDocument doc;
    if (doc.Parse(text.c_str(), text.size()) != XML_SUCCESS) {
      fprintf(stderr, "parse error: %s\n", doc.ErrorStr());
      return 1;
    }
    mixn(walk(doc.RootElement()->FirstChildElement(), 0));
    XMLElement *extra = doc.NewElement("extra");
    extra->SetText(round);
    doc.RootElement()->InsertEndChild(extra);
    XMLPrinter printer(nullptr, round % 2 == 1);
    doc.Print(&printer);
    mix(printer.CStr(), printer.CStrSize());
    XMLDocument copy;
    copy.Parse(printer.CStr());
    mixn(copy.ErrorID());
    XMLDocument bad;
    std::string broken = text.substr(0, text.size() / 2 + rnd(100));
    mixn(bad.Parse(broken.c_str()));
  }
  printf("checksum %llu\n", h);
  return 0;
}
