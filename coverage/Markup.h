// Escaping text for XML and HTML reports.
#pragma once

#include <string>

namespace pathcov {

// Text safe in XML 1.0 and HTML content and attribute values: markup
// characters as entities, control characters XML forbids as '?'.
std::string escapeMarkup(const std::string &text);

} // namespace pathcov
