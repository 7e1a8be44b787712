// Headless Chromium (Debian's `chromium`) for tests of the HTML reports: a page opened offline,
// its DOM dumped after the page's self-check script ran (report/html_chart.h), or a screenshot.
// Each launch has no network, no first-run or background activity, a fresh profile under the
// given folder, and is bounded by `timeout 60`.
#pragma once

#include <string>

namespace fleetsim::testing {

inline constexpr const char* kChromium = "/usr/bin/chromium";

// The command line; `action` is --dump-dom or --screenshot=...
std::string ChromiumCommand(const std::string& dir, const std::string& action,
                            const std::string& page);

// The value of the body's data-rendered attribute in a dumped DOM, or a note that it is missing.
std::string RenderedAttribute(const std::string& dom);

}  // namespace fleetsim::testing
