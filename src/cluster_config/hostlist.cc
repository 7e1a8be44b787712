// Slurm host-list expansion.
#include "cluster_config/hostlist.h"

#include <fmt/format.h>

#include <cstdint>

namespace fleetsim {

namespace {

bool IsNumber(std::string_view text) {
  return !text.empty() && text.size() <= 18 &&
         text.find_first_not_of("0123456789") == std::string_view::npos;
}

std::int64_t Number(std::string_view text) {
  std::int64_t value = 0;
  for (const char c : text) {
    value = value * 10 + (c - '0');
  }
  return value;
}

// The suffixes one bracket group stands for: "01-03,7" -> "01", "02", "03", "7".
Status ExpandRanges(std::string_view ranges, std::string_view expression,
                    std::vector<std::string>& out) {
  for (std::string_view item : SplitHostListItems(ranges)) {
    const std::size_t dash = item.find('-');
    const std::string_view first = item.substr(0, dash);
    const std::string_view last = dash == std::string_view::npos ? first : item.substr(dash + 1);
    if (!IsNumber(first) || !IsNumber(last)) {
      return Status::InvalidInput(fmt::format(
          "host list '{}': expected numbers or ranges like 01-08 in brackets, found '{}'",
          expression, item));
    }
    const std::int64_t from = Number(first);
    const std::int64_t to = Number(last);
    if (to < from) {
      return Status::InvalidInput(
          fmt::format("host list '{}': range '{}' runs backwards", expression, item));
    }
    if (static_cast<std::size_t>(to - from) >= kMaxHostListHosts - out.size()) {
      return Status::InvalidInput(
          fmt::format("host list '{}': more than {} hosts", expression, kMaxHostListHosts));
    }
    for (std::int64_t n = from; n <= to; ++n) {
      out.push_back(fmt::format("{:0{}}", n, first.size()));
    }
  }
  return Status::Ok();
}

// Expands one item without top-level commas: text and bracket groups, a cartesian product.
Status ExpandItem(std::string_view item, std::string_view expression,
                  std::vector<std::string>& hosts) {
  std::vector<std::string> partial = {""};
  while (!item.empty()) {
    const std::size_t open = item.find('[');
    const std::string_view text = item.substr(0, open);
    if (text.find(']') != std::string_view::npos) {
      return Status::InvalidInput(fmt::format("host list '{}': a ']' without its '['", expression));
    }
    for (std::string& name : partial) {
      name += text;
    }
    if (open == std::string_view::npos) {
      break;
    }
    const std::size_t close = item.find(']', open);
    if (close == std::string_view::npos) {
      return Status::InvalidInput(fmt::format("host list '{}': a '[' is not closed", expression));
    }
    std::vector<std::string> suffixes;
    if (Status status = ExpandRanges(item.substr(open + 1, close - open - 1), expression, suffixes);
        !status.ok()) {
      return status;
    }
    if (partial.size() * suffixes.size() > kMaxHostListHosts) {
      return Status::InvalidInput(
          fmt::format("host list '{}': more than {} hosts", expression, kMaxHostListHosts));
    }
    std::vector<std::string> next;
    for (const std::string& name : partial) {
      for (const std::string& suffix : suffixes) {
        next.push_back(name + suffix);
      }
    }
    partial = std::move(next);
    item.remove_prefix(close + 1);
  }
  for (std::string& name : partial) {
    if (name.empty()) {
      return Status::InvalidInput(fmt::format("host list '{}': an empty host name", expression));
    }
    hosts.push_back(std::move(name));
  }
  return Status::Ok();
}

}  // namespace

std::vector<std::string_view> SplitHostListItems(std::string_view text) {
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    depth += text[i] == '[' ? 1 : (text[i] == ']' ? -1 : 0);
    if (text[i] == ',' && depth == 0) {
      items.push_back(text.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  items.push_back(text.substr(begin));
  return items;
}

Status ExpandHostList(std::string_view expression, std::vector<std::string>& hosts) {
  hosts.clear();
  for (std::string_view item : SplitHostListItems(expression)) {
    if (Status status = ExpandItem(item, expression, hosts); !status.ok()) {
      return status;
    }
    if (hosts.size() > kMaxHostListHosts) {
      return Status::InvalidInput(
          fmt::format("host list '{}': more than {} hosts", expression, kMaxHostListHosts));
    }
  }
  return Status::Ok();
}

}  // namespace fleetsim
