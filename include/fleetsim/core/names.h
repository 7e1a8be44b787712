// The rule for names that name other things: a scenario's name (its output folders and files)
// and a tenant's (jobs and other tenants refer to it). One rule, so that a name one input accepts
// is one the others accept.
#pragma once

#include <cstddef>
#include <string_view>

namespace fleetsim {

// At most this many characters, and no leading '.' (which would allow '.' and '..', and the hidden
// names output folders keep for themselves, such as the manifest).
inline constexpr std::size_t kMaxPlainNameChars = 128;
inline constexpr const char* kPlainNameExpectation =
    "a name of 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'";

// 1 to kMaxPlainNameChars ASCII letters, digits, '.', '_' or '-', not starting with '.'.
bool IsPlainName(std::string_view name);

}  // namespace fleetsim
