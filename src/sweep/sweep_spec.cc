// Reading and checking sweep spec files (docs/sweeps.md#the-spec).
#include "fleetsim/sweep/sweep_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "fleetsim/sweep/sweep_metrics.h"
#include "json/json_checker.h"
#include "json/json_text.h"

namespace fleetsim {

namespace {

using json = nlohmann::json;

const std::vector<std::string> kTopKeys = {"format_version", "kind",  "name", "description",
                                           "base",           "axes",  "zip",  "exclude",
                                           "baseline",       "report"};
const std::vector<std::string> kAxisKeys = {"name", "param", "pointer", "variants", "values"};
// Column names results.csv gives to what is not an axis of the spec's own.
const std::vector<std::string> kReservedNames = {"point",  "run_id",      "scenario",
                                                 "status", "exit_status", "error"};
// The longest integer range an axis may list (first..last by step).
constexpr std::int64_t kMaxRangeValues = 100'000;

// How results show an axis value: a string as is, anything else as compact JSON.
std::string LabelOf(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

class SweepParser {
 public:
  SweepParser(const FileSystem& files, const PolicyRegistry& registry, std::string source,
              Diagnostics& diagnostics)
      : files_(files), registry_(registry), source_(std::move(source)), check_(diagnostics) {}

  SweepSpec Parse(const json& root) {
    SweepSpec s;
    s.source = source_;
    if (!root.is_object()) {
      check_.Error("", fmt::format("expected a sweep spec object, found {}", Shown(root)));
      return s;
    }
    check_.UnknownKeys(root, "", kTopKeys);
    if (const auto version = check_.Int(root, "", "format_version", {1, 1000}, true);
        version && *version != kSweepFormatVersion) {
      check_.Error("/format_version",
                   fmt::format("expected {}, found {}", kSweepFormatVersion, *version));
    }
    if (const auto kind = check_.String(root, "", "kind", true); kind && *kind != "sweep") {
      check_.Error("/kind", fmt::format("expected \"sweep\", found \"{}\"", *kind));
    }
    Runs(root, s);
    Baseline(root, s);
    Report(root, s);
    return s;
  }

  // The keys that describe the runs, shared with the files that embed them (plan specs).
  void Runs(const json& root, SweepSpec& s) {
    s.source = source_;
    s.files = &files_;
    s.name = Name(root);
    s.description = check_.String(root, "", "description", false).value_or("");
    Base(root, s);
    Axes(root, s);
    Zip(root, s);
    Exclude(root, s);
  }

 private:
  std::string Name(const json& root) {
    std::string name = check_.String(root, "", "name", true).value_or("");
    if (root.contains("name") && root["name"].is_string() &&
        (name.empty() || name.front() == '.' || name.find('/') != std::string::npos)) {
      check_.Error("/name", fmt::format("expected a name that is not empty, does not start with "
                                        "'.' and has no '/', found {}",
                                        Shown(root["name"])));
    }
    return name;
  }

  // "base": one scenario file or a list of them, relative to the spec; each must exist.
  void Base(const json& root, SweepSpec& s) {
    if (!root.contains("base")) {
      check_.Error("/base", "expected the base scenario file (or a list of them), found nothing");
      return;
    }
    const json& base = root["base"];
    if (base.is_string()) {
      AddBase(base, "/base", s);
      return;
    }
    if (!base.is_array() || base.empty()) {
      check_.Error("/base", fmt::format("expected a scenario file or a non-empty list of them, "
                                        "found {}",
                                        Shown(base)));
      return;
    }
    for (std::size_t i = 0; i < base.size(); ++i) {
      AddBase(base[i], ChildPath("/base", i), s);
    }
  }

  void AddBase(const json& value, const std::string& where, SweepSpec& s) {
    if (!value.is_string()) {
      check_.Error(where, fmt::format("expected a scenario file name, found {}", Shown(value)));
      return;
    }
    const std::string given = value.get<std::string>();
    std::filesystem::path resolved(given);
    if (!resolved.is_absolute()) {
      resolved = (std::filesystem::path(source_).parent_path() / resolved).lexically_normal();
    }
    if (!files_.IsFile(resolved.string())) {
      check_.Error(
          where, fmt::format("expected a scenario file, found no file at '{}'", resolved.string()));
      return;
    }
    if (std::find(s.base.begin(), s.base.end(), resolved.string()) != s.base.end()) {
      check_.Error(where, fmt::format("'{}' is listed twice", given));
      return;
    }
    s.base.push_back(resolved.string());
    s.base_given.push_back(given);
  }

  void Axes(const json& root, SweepSpec& s) {
    const json* axes = check_.Array(root, "", "axes", false);
    if (axes == nullptr) {
      return;
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < axes->size(); ++i) {
      const std::string where = ChildPath("/axes", i);
      std::optional<SweepAxis> axis = Axis((*axes)[i], where);
      if (!axis) {
        continue;
      }
      if (!names.insert(axis->name).second) {
        check_.Error(where + "/name", fmt::format("two axes are named '{}'", axis->name));
        continue;
      }
      s.axes.push_back(std::move(*axis));
    }
    for (const AxisTarget unique : {AxisTarget::kPolicy, AxisTarget::kSeed}) {
      if (std::count_if(s.axes.begin(), s.axes.end(),
                        [&](const SweepAxis& a) { return a.target == unique; }) > 1) {
        check_.Error("/axes", "expected at most one policy axis and one seed axis");
      }
    }
  }

  std::optional<SweepAxis> Axis(const json& object, const std::string& where) {
    if (!object.is_object()) {
      check_.Error(where, fmt::format("expected an axis object, found {}", Shown(object)));
      return std::nullopt;
    }
    check_.UnknownKeys(object, where, kAxisKeys);
    const auto name = check_.String(object, where, "name", false);
    const auto param = check_.String(object, where, "param", false);
    const auto pointer = check_.String(object, where, "pointer", false);
    const bool variants = object.contains("variants");
    const int targets = int(param.has_value()) + int(pointer.has_value()) + int(variants);
    if (targets > 1) {
      check_.Error(where, "expected one of \"param\", \"pointer\" and \"variants\", found more");
      return std::nullopt;
    }
    SweepAxis axis;
    if (param) {
      axis.target = AxisTarget::kPolicyParam;
      axis.path = *param;
      CheckParamDeclared(*param, where + "/param");
    } else if (pointer) {
      axis.target = AxisTarget::kPointer;
      axis.path = *pointer;
      CheckPointerSyntax(*pointer, where + "/pointer");
    } else if (variants) {
      axis.target = AxisTarget::kVariant;
    } else if (name == "policy") {
      axis.target = AxisTarget::kPolicy;
    } else if (name == "seed") {
      axis.target = AxisTarget::kSeed;
    } else {
      check_.Error(where, fmt::format("expected \"param\", \"pointer\" or \"variants\" (or the "
                                      "name \"policy\" or \"seed\"), found {}",
                                      name ? fmt::format("an axis named '{}' with none", *name)
                                           : std::string("none")));
      return std::nullopt;
    }
    axis.name = name.value_or(targets == 0 ? "" : param ? *param : pointer ? *pointer : "variant");
    if (!CheckAxisName(axis, where)) {
      return std::nullopt;
    }
    if (axis.target == AxisTarget::kVariant) {
      Variants(object, where, axis);
    } else if (object.contains("values")) {
      Values(object["values"], where + "/values", axis);
    } else {
      check_.Error(where + "/values", "expected the axis's values, found nothing");
    }
    if (object.contains("values") && axis.target == AxisTarget::kVariant) {
      check_.Error(where + "/values", "a variants axis lists its values in \"variants\"");
    }
    CheckDistinctLabels(axis, where);
    return axis;
  }

  bool CheckAxisName(const SweepAxis& axis, const std::string& where) {
    const bool reserved_target =
        axis.target == AxisTarget::kPolicy || axis.target == AxisTarget::kSeed;
    if (!reserved_target && (axis.name == "policy" || axis.name == "seed")) {
      check_.Error(where + "/name",
                   fmt::format("the name '{}' is kept for the {} axis", axis.name, axis.name));
      return false;
    }
    if (axis.name.empty() ||
        std::find(kReservedNames.begin(), kReservedNames.end(), axis.name) !=
            kReservedNames.end() ||
        std::find(SweepMetricNames().begin(), SweepMetricNames().end(), axis.name) !=
            SweepMetricNames().end()) {
      check_.Error(where + "/name",
                   fmt::format("expected an axis name that is not empty and is not a results "
                               "column ({} or a metric), found \"{}\"",
                               QuotedList(kReservedNames), axis.name));
      return false;
    }
    return true;
  }

  void CheckParamDeclared(const std::string& param, const std::string& where) {
    std::vector<std::string> all;
    for (const PolicyInfo& info : registry_.policies()) {
      for (const ParamSpec& spec : info.params) {
        if (spec.name == param) {
          return;
        }
        all.push_back(spec.name);
      }
    }
    check_.Error(where,
                 fmt::format("no policy has a parameter '{}'{}", param, DidYouMean(param, all)));
  }

  void CheckPointerSyntax(const std::string& pointer, const std::string& where) {
    try {
      const json::json_pointer parsed(pointer);
      if (parsed.empty()) {
        check_.Error(where,
                     "expected a pointer into the scenario, found \"\" (the whole "
                     "document: use a variants axis)");
      }
    } catch (const json::exception&) {
      check_.Error(where, fmt::format("expected a JSON Pointer (RFC 6901, such as "
                                      "\"/fleet/pools/0/nodes\"), found \"{}\"",
                                      Quoted(pointer)));
    }
  }

  // A list of values, or an integer range {"first", "last", "step"}.
  void Values(const json& values, const std::string& where, SweepAxis& axis) {
    if (values.is_object()) {
      Range(values, where, axis);
    } else if (values.is_array()) {
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (ValueFits(values[i], ChildPath(where, i), axis)) {
          axis.values.push_back({.value = values[i], .label = LabelOf(values[i])});
        }
      }
    } else {
      check_.Error(where, fmt::format("expected a list of values or a range {{\"first\", "
                                      "\"last\", \"step\"}}, found {}",
                                      Shown(values)));
      return;
    }
    if (values.is_array() && values.empty()) {
      check_.Error(where, "expected at least one value, found none");
    }
  }

  // Sweep values are checked in each point's scenario; here only what the axis itself needs.
  bool ValueFits(const json& value, const std::string& where, const SweepAxis& axis) {
    if (axis.target == AxisTarget::kPolicy) {
      if (!value.is_string() || registry_.Find(value.get<std::string>()) == nullptr) {
        const std::string found = value.is_string() ? value.get<std::string>() : Shown(value);
        check_.Error(where, fmt::format("expected a policy name ({}), found '{}'{}",
                                        QuotedList(registry_.Names()), found,
                                        DidYouMean(found, registry_.Names())));
        return false;
      }
    } else if (axis.target == AxisTarget::kSeed && !value.is_number_unsigned()) {
      check_.Error(where, fmt::format("expected a seed, an integer in [0, "
                                      "18446744073709551615], found {}",
                                      Shown(value)));
      return false;
    }
    return true;
  }

  void Range(const json& range, const std::string& where, SweepAxis& axis) {
    check_.UnknownKeys(range, where, {"first", "last", "step"});
    const IntRange any{0, std::int64_t{1} << 53};
    const auto first = check_.Int(range, where, "first", any, true);
    const auto last = check_.Int(range, where, "last", any, true);
    const auto step = check_.Int(range, where, "step", {1, std::int64_t{1} << 53}, false);
    if (!first || !last || (range.contains("step") && !step)) {
      return;
    }
    if (*last < *first || (*last - *first) / step.value_or(1) >= kMaxRangeValues) {
      check_.Error(where, fmt::format("expected first <= last and at most {} values, found {} "
                                      "to {}",
                                      kMaxRangeValues, *first, *last));
      return;
    }
    if (axis.target == AxisTarget::kPolicy) {
      check_.Error(where, "expected a list of policy names, found a range");
      return;
    }
    for (std::int64_t v = *first; v <= *last; v += step.value_or(1)) {
      const json value = axis.target == AxisTarget::kSeed ? json(std::uint64_t(v)) : json(v);
      axis.values.push_back({.value = value, .label = LabelOf(value)});
    }
  }

  // "variants": [{"name", "patch"}], the patch a JSON merge patch of the scenario.
  void Variants(const json& object, const std::string& where, SweepAxis& axis) {
    const json* variants = check_.Array(object, where, "variants", true);
    if (variants == nullptr) {
      return;
    }
    if (variants->empty()) {
      check_.Error(where + "/variants", "expected at least one variant, found none");
    }
    for (std::size_t i = 0; i < variants->size(); ++i) {
      const std::string at = ChildPath(where + "/variants", i);
      const json& variant = (*variants)[i];
      if (!variant.is_object()) {
        check_.Error(at, fmt::format("expected {{\"name\", \"patch\"}}, found {}", Shown(variant)));
        continue;
      }
      check_.UnknownKeys(variant, at, {"name", "patch"});
      const auto name = check_.String(variant, at, "name", true);
      const json* patch = check_.Object(variant, at, "patch", true);
      if (name && patch != nullptr) {
        axis.values.push_back({.value = *patch, .label = *name});
      }
    }
  }

  void CheckDistinctLabels(const SweepAxis& axis, const std::string& where) {
    std::set<std::string> seen;
    for (const AxisValue& v : axis.values) {
      if (!seen.insert(v.label).second) {
        check_.Error(where, fmt::format("the value {} is listed twice", v.label));
      }
    }
  }

  std::optional<std::size_t> AxisIndex(const SweepSpec& s, const std::string& name,
                                       const std::string& where) {
    for (std::size_t i = 0; i < s.axes.size(); ++i) {
      if (s.axes[i].name == name) {
        return i;
      }
    }
    std::vector<std::string> names;
    for (const SweepAxis& a : s.axes) {
      names.push_back(a.name);
    }
    check_.Error(where, fmt::format("no axis is named '{}'{}", name, DidYouMean(name, names)));
    return std::nullopt;
  }

  // "zip": [["a", "b"], ...]: axes of equal length that move together; each in one group.
  void Zip(const json& root, SweepSpec& s) {
    const json* zip = check_.Array(root, "", "zip", false);
    if (zip == nullptr) {
      return;
    }
    std::set<std::size_t> zipped;
    for (std::size_t g = 0; g < zip->size(); ++g) {
      const std::string where = ChildPath("/zip", g);
      const json& group = (*zip)[g];
      if (!group.is_array() || group.size() < 2) {
        check_.Error(where, fmt::format("expected a list of two or more axis names, found {}",
                                        Shown(group)));
        continue;
      }
      std::vector<std::size_t> members;
      for (std::size_t k = 0; k < group.size(); ++k) {
        const std::string at = ChildPath(where, k);
        if (!group[k].is_string()) {
          check_.Error(at, fmt::format("expected an axis name, found {}", Shown(group[k])));
          continue;
        }
        const auto index = AxisIndex(s, group[k].get<std::string>(), at);
        if (index && !zipped.insert(*index).second) {
          check_.Error(at, fmt::format("axis '{}' is in more than one zip group (or twice)",
                                       s.axes[*index].name));
        } else if (index) {
          members.push_back(*index);
        }
      }
      if (members.size() == group.size()) {
        CheckZipLengths(s, members, where);
        s.zip.push_back(std::move(members));
      }
    }
  }

  void CheckZipLengths(const SweepSpec& s, const std::vector<std::size_t>& members,
                       const std::string& where) {
    for (const std::size_t m : members) {
      if (s.axes[m].values.size() != s.axes[members[0]].values.size()) {
        check_.Error(where, fmt::format("zipped axes must have as many values each: '{}' has "
                                        "{}, '{}' has {}",
                                        s.axes[members[0]].name, s.axes[members[0]].values.size(),
                                        s.axes[m].name, s.axes[m].values.size()));
        return;
      }
    }
  }

  // "exclude": [{"axis": value or [values], ...}]: drops the points matching every entry.
  void Exclude(const json& root, SweepSpec& s) {
    const json* exclude = check_.Array(root, "", "exclude", false);
    if (exclude == nullptr) {
      return;
    }
    for (std::size_t r = 0; r < exclude->size(); ++r) {
      const std::string where = ChildPath("/exclude", r);
      const json& rule = (*exclude)[r];
      if (!rule.is_object() || rule.empty()) {
        check_.Error(where, fmt::format("expected an object of axis names and values, found {}",
                                        Shown(rule)));
        continue;
      }
      ExcludeRule parsed;
      for (const auto& [name, value] : rule.items()) {
        const std::string at = ChildPath(where, name);
        const auto index = AxisIndex(s, name, at);
        if (!index) {
          continue;
        }
        std::vector<std::string> labels = RuleLabels(s.axes[*index], value, at);
        if (!labels.empty()) {
          parsed.axes.emplace_back(*index, std::move(labels));
        }
      }
      if (parsed.axes.size() == rule.size()) {
        s.exclude.push_back(std::move(parsed));
      }
    }
  }

  // The labels a rule names on one axis: the value itself if the axis has it, else each element
  // of a list; each must be one of the axis's values.
  std::vector<std::string> RuleLabels(const SweepAxis& axis, const json& value,
                                      const std::string& where) {
    std::vector<std::string> labels;
    for (const AxisValue& v : axis.values) {
      if (v.label == LabelOf(value)) {
        return {v.label};
      }
    }
    const std::vector<json> listed =
        value.is_array() ? value.get<std::vector<json>>() : std::vector<json>{value};
    std::vector<std::string> known;
    for (const AxisValue& v : axis.values) {
      known.push_back(v.label);
    }
    for (const json& item : listed) {
      const std::string label = LabelOf(item);
      if (std::find(known.begin(), known.end(), label) == known.end()) {
        check_.Error(where, fmt::format("axis '{}' has no value {}{}", axis.name, Quoted(label),
                                        DidYouMean(label, known)));
        return {};
      }
      labels.push_back(label);
    }
    return labels;
  }

  // "baseline": the policy paired differences are taken against; default fifo when swept.
  void Baseline(const json& root, SweepSpec& s) {
    const auto policy_axis = std::find_if(s.axes.begin(), s.axes.end(), [](const SweepAxis& a) {
      return a.target == AxisTarget::kPolicy;
    });
    std::vector<std::string> swept;
    if (policy_axis != s.axes.end()) {
      for (const AxisValue& v : policy_axis->values) {
        swept.push_back(v.label);
      }
    }
    const auto given = check_.String(root, "", "baseline", false);
    if (!given) {
      const bool fifo = std::find(swept.begin(), swept.end(), "fifo") != swept.end();
      s.baseline_policy = fifo ? "fifo" : "";
      return;
    }
    if (std::find(swept.begin(), swept.end(), *given) == swept.end()) {
      check_.Error("/baseline", fmt::format("expected one of the policy axis's values ({}), "
                                            "found '{}'{}",
                                            QuotedList(swept), *given, DidYouMean(*given, swept)));
      return;
    }
    s.baseline_policy = *given;
  }

  // "report": {"metrics": [...]}: what report.html plots.
  void Report(const json& root, SweepSpec& s) {
    s.report_metrics = DefaultReportMetrics();
    const json* report = check_.Object(root, "", "report", false);
    if (report == nullptr) {
      return;
    }
    check_.UnknownKeys(*report, "/report", {"metrics"});
    const json* metrics = check_.Array(*report, "/report", "metrics", false);
    if (metrics == nullptr) {
      return;
    }
    s.report_metrics.clear();
    for (std::size_t i = 0; i < metrics->size(); ++i) {
      const std::string where = ChildPath("/report/metrics", i);
      const json& m = (*metrics)[i];
      const std::string name = m.is_string() ? m.get<std::string>() : Shown(m);
      const auto& all = SweepMetricNames();
      if (!m.is_string() || std::find(all.begin(), all.end(), name) == all.end()) {
        check_.Error(where, fmt::format("expected a metric name, found '{}'{}", name,
                                        DidYouMean(name, all)));
        continue;
      }
      s.report_metrics.push_back(name);
    }
  }

  const FileSystem& files_;  // where the base scenarios must be
  const PolicyRegistry& registry_;
  std::string source_;
  JsonChecker check_;
};

}  // namespace

SweepSpec ParseSweepRuns(const FileSystem& files, const nlohmann::json& root,
                         const std::string& source, const PolicyRegistry& registry,
                         Diagnostics& diagnostics) {
  SweepSpec spec;
  SweepParser(files, registry, source, diagnostics).Runs(root, spec);
  return spec;
}

SweepLoad LoadSweepSpec(const FileSystem& files, const std::string& path,
                        const PolicyRegistry& registry, bool strict) {
  return LoadSpecFile<SweepLoad>(
      files, path, strict, [&](const json& root, Diagnostics& diagnostics) {
        return SweepParser(files, registry, path, diagnostics).Parse(root);
      });
}

}  // namespace fleetsim
