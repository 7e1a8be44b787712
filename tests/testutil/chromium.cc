// Headless Chromium for the report tests.
#include "testutil/chromium.h"

#include <fmt/format.h>


namespace fleetsim::testing {

std::string ChromiumCommand(const std::string& dir, const std::string& action,
                            const std::string& page) {
  return fmt::format(
      "HOME='{0}' timeout 60 {1} --headless --no-sandbox --disable-gpu --disable-quic "
      "--no-first-run --disable-background-networking --disable-component-update --disable-sync "
      "--user-data-dir='{0}/profile' --virtual-time-budget=5000 --window-size=1100,2400 {2} "
      "'file://{3}'",
      dir, kChromium, action, page);
}

std::string RenderedAttribute(const std::string& dom) {
  const std::string key = "data-rendered=\"";
  const std::size_t at = dom.find(key);
  if (at == std::string::npos) {
    return "(no data-rendered attribute: the self-check did not run)";
  }
  const std::size_t end = dom.find('"', at + key.size());
  return dom.substr(at + key.size(), end - at - key.size());
}

}  // namespace fleetsim::testing
