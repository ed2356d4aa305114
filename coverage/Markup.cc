#include "Markup.h"

namespace pathcov {

std::string escapeMarkup(const std::string &text) {
  std::string out;
  for (char c : text)
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&apos;"; break;
    default:
      // Control characters are not allowed in XML 1.0.
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' &&
          c != '\r')
        out += '?';
      else
        out += c;
    }
  return out;
}

} // namespace pathcov
