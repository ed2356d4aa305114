// The error every reader and check of input data throws.
#pragma once

#include <stdexcept>
#include <string>

namespace pathcov {

// A problem with the input data. The message starts with where the problem
// is in the input document (a JSON location such as "edges[3].to") when
// there is such a place, so that callers only prefix the file name.
class InputError : public std::runtime_error {
public:
  explicit InputError(const std::string &what) : std::runtime_error(what) {}
};

} // namespace pathcov
