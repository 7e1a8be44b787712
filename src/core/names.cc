// The rule for names that name other things (see names.h).
#include "fleetsim/core/names.h"

#include <algorithm>

namespace fleetsim {

bool IsPlainName(std::string_view name) {
  return !name.empty() && name.size() <= kMaxPlainNameChars && name.front() != '.' &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == '-';
         });
}

}  // namespace fleetsim
