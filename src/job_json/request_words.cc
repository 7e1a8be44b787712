// Reading GPU requests written as Slurm GRES and Kubernetes resources into the job model.
#include "job_json/request_words.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/fleet/mig.h"
#include "text/text_fields.h"

namespace fleetsim {

namespace {

constexpr std::string_view kGpuResource = "nvidia.com/gpu";
constexpr std::string_view kMigResourcePrefix = "nvidia.com/mig-";
constexpr double kBytesPerMib = 1024.0 * 1024.0;

std::vector<std::string> Split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(separator, begin);
    parts.emplace_back(text.substr(begin, end - begin));
    if (end == std::string_view::npos) {
      return parts;
    }
    begin = end + 1;
  }
}

std::optional<std::int64_t> GpuCount(std::string_view text) {
  FieldError ignored;
  return IntField(text, "count", 1, kMaxJobGpus, ignored);
}

// The count of a Kubernetes extended resource: a whole number in [min, max].
std::optional<std::int64_t> WholeQuantity(std::string_view text, std::int64_t min,
                                          std::int64_t max) {
  const std::optional<double> value = KubernetesQuantity(text);
  if (!value || *value != std::floor(*value) || *value < static_cast<double>(min) ||
      *value > static_cast<double>(max)) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(*value);
}

// What the requests ask for, read one by one.
struct ResourceTally {
  std::optional<std::int64_t> gpus;
  std::optional<std::string> mig_profile;
  std::optional<std::int64_t> cpu_milli;
  std::optional<std::int64_t> memory_mib;
};

std::optional<std::string> ReadResource(const ResourceRequest& request, ResourceTally& tally) {
  const std::string& name = request.name;
  const std::string& value = request.value;
  if (name == kGpuResource) {
    tally.gpus = WholeQuantity(value, 1, kMaxJobGpus);
    if (!tally.gpus) {
      return fmt::format("expected a whole GPU count in [1, {}] for '{}', found '{}'", kMaxJobGpus,
                         name, value);
    }
  } else if (name.starts_with(kMigResourcePrefix)) {
    const std::string profile = name.substr(kMigResourcePrefix.size());
    const std::optional<MigTypeName> mig = SplitMigTypeName(profile);
    if (!mig || !mig->model.empty()) {
      return fmt::format("expected a MIG profile such as 'nvidia.com/mig-1g.10gb', found '{}'",
                         name);
    }
    if (value != "1") {
      return fmt::format("expected 1 (one MIG instance per job is modelled) for '{}', found '{}'",
                         name, value);
    }
    if (tally.mig_profile) {
      return fmt::format("expected one MIG resource, found '{}' and '{}{}'", name,
                         kMigResourcePrefix, *tally.mig_profile);
    }
    tally.mig_profile = mig->profile;
  } else if (name == "cpu") {
    const std::optional<double> cores = KubernetesQuantity(value);
    if (!cores || *cores <= 0 || *cores > 1e9) {
      return fmt::format("expected a CPU quantity such as '8' or '500m' for 'cpu', found '{}'",
                         value);
    }
    tally.cpu_milli = static_cast<std::int64_t>(std::ceil(*cores * 1000 - 1e-9));
  } else if (name == "memory") {
    const std::optional<double> bytes = KubernetesQuantity(value);
    if (!bytes || *bytes <= 0 || *bytes > 1e18) {
      return fmt::format("expected a memory quantity such as '64Gi' for 'memory', found '{}'",
                         value);
    }
    tally.memory_mib = static_cast<std::int64_t>(std::ceil(*bytes / kBytesPerMib));
  } else {
    const std::vector<std::string> known = {std::string(kGpuResource), "nvidia.com/mig-1g.10gb",
                                            "cpu", "memory"};
    return fmt::format(
        "expected nvidia.com/gpu, nvidia.com/mig-<profile>, cpu or memory, "
        "found '{}'{}",
        name, DidYouMean(name, known));
  }
  return std::nullopt;
}

std::string JoinResources(const std::vector<ResourceRequest>& requests) {
  std::string text;
  for (const ResourceRequest& request : requests) {
    text += text.empty() ? "" : ",";
    text += request.name + "=" + request.value;
  }
  return text;
}

}  // namespace

const std::vector<std::string>& FieldsSetByGres() {
  static const std::vector<std::string> fields = {"gpus",    "max_gpus",  "gpu_models",
                                                  "sharing", "gpu_milli", "gpu_memory_gb"};
  return fields;
}

const std::vector<std::string>& FieldsSetByResources() {
  static const std::vector<std::string> fields = [] {
    std::vector<std::string> out = FieldsSetByGres();
    out.insert(out.end(), {"cpu_milli", "memory_mib"});
    return out;
  }();
  return fields;
}

bool SetByRequestWords(const JobRequest& r, std::string_view field) {
  const auto in = [field](const std::vector<std::string>& fields) {
    return std::find(fields.begin(), fields.end(), field) != fields.end();
  };
  return (!r.gres.empty() && in(FieldsSetByGres())) ||
         (!r.resources.empty() && in(FieldsSetByResources()));
}

std::optional<std::string> SetGpusOfTypes(std::int64_t count, const std::vector<std::string>& types,
                                          JobRequest& r) {
  r.gpus = count;
  for (const std::string& type : types) {
    const std::optional<MigTypeName> mig = SplitMigTypeName(type);
    if (!mig) {
      r.gpu_models.push_back(type);
      continue;
    }
    if (count != 1 || types.size() != 1) {
      return fmt::format("expected one MIG instance alone, found {} GPUs of types '{}'", count,
                         fmt::join(types, "', '"));
    }
    r.sharing = GpuSharing::kMig;
    r.gpu_memory_gb = mig->memory_gb;
    if (!mig->model.empty()) {
      r.gpu_models.push_back(mig->model);
    }
  }
  return std::nullopt;
}

std::optional<std::string> ApplyGres(std::string_view text, JobRequest& r) {
  const std::vector<std::string> parts = Split(text, ':');
  const auto bad = [&] {
    return fmt::format(
        "expected a GPU request as gpu[:TYPE][:COUNT] (one GRES, count >= 1), "
        "found '{}'",
        text);
  };
  if (parts.size() > 3 || parts[0] != "gpu") {
    return bad();
  }
  std::int64_t count = 1;
  std::vector<std::string> types;
  if (parts.size() >= 2) {
    const bool last_is_count =
        parts.size() == 3 || parts[1].find_first_not_of("0123456789") == std::string::npos;
    if (last_is_count) {
      const std::optional<std::int64_t> parsed = GpuCount(parts.back());
      if (!parsed) {
        return bad();
      }
      count = *parsed;
    }
    if (parts.size() == 3 || !last_is_count) {
      if (parts[1].empty() || std::isalnum(static_cast<unsigned char>(parts[1][0])) == 0 ||
          parts[1].find_first_of(" ,=") != std::string::npos) {
        return bad();
      }
      types.push_back(parts[1]);
    }
  }
  if (std::optional<std::string> problem = SetGpusOfTypes(count, types, r)) {
    return problem;
  }
  r.gres = std::string(text);
  return std::nullopt;
}

std::optional<std::string> ApplyResources(const std::vector<ResourceRequest>& requests,
                                          JobRequest& r) {
  ResourceTally tally;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const ResourceRequest& request = requests[i];
    for (std::size_t j = 0; j < i; ++j) {
      if (requests[j].name == request.name) {
        return fmt::format("expected each resource once, found '{}' twice", request.name);
      }
    }
    if (request.name.find_first_of(",=") != std::string::npos ||
        request.value.find_first_of(",=") != std::string::npos) {
      return fmt::format("expected a resource name and value without ',' or '=', found '{}={}'",
                         request.name, request.value);
    }
    if (std::optional<std::string> problem = ReadResource(request, tally)) {
      return problem;
    }
  }
  if (tally.gpus && tally.mig_profile) {
    return fmt::format("expected whole GPUs or one MIG instance, found both '{}' and '{}{}'",
                       kGpuResource, kMigResourcePrefix, *tally.mig_profile);
  }
  if (!tally.gpus && !tally.mig_profile && !tally.cpu_milli) {
    return fmt::format("expected '{}', a '{}<profile>' or (for a CPU-only job) 'cpu', found {}",
                       kGpuResource, kMigResourcePrefix,
                       requests.empty() ? "no resources" : "'" + JoinResources(requests) + "'");
  }
  if (tally.mig_profile) {
    SetGpusOfTypes(1, {*tally.mig_profile}, r);
  } else {
    r.gpus = tally.gpus.value_or(0);
  }
  r.cpu_milli = tally.cpu_milli.value_or(0);
  r.memory_mib = tally.memory_mib.value_or(0);
  std::vector<ResourceRequest> by_name = requests;  // one text whatever order they came in
  std::sort(by_name.begin(), by_name.end(),
            [](const ResourceRequest& a, const ResourceRequest& b) { return a.name < b.name; });
  r.resources = JoinResources(by_name);
  return std::nullopt;
}

std::vector<RequestWordsProblem> ApplyRequestWords(const GivenRequestWords& given, JobRequest& r) {
  if (!given.gres && !given.resources) {
    return {};
  }
  if (given.gres && given.resources) {
    return {{"resources", "expected either 'gres' or 'resources', found both"}};
  }
  const std::string key = given.gres ? "gres" : "resources";
  std::vector<RequestWordsProblem> problems;
  for (const auto& [field, shown] : given.fields) {
    const auto& taken = given.gres ? FieldsSetByGres() : FieldsSetByResources();
    if (std::find(taken.begin(), taken.end(), field) != taken.end()) {
      problems.push_back(
          {field, fmt::format("expected no '{}' beside '{}', which sets it, found {}", field, key,
                              shown)});
    }
  }
  if (!problems.empty()) {
    return problems;
  }
  const std::optional<std::string> problem =
      given.gres ? ApplyGres(*given.gres, r) : ApplyResources(*given.resources, r);
  if (problem) {
    return {{key, *problem}};
  }
  return {};
}

std::optional<std::vector<ResourceRequest>> SplitResources(std::string_view text) {
  std::vector<ResourceRequest> requests;
  for (const std::string& entry : Split(text, ',')) {
    const std::size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == entry.size()) {
      return std::nullopt;
    }
    requests.push_back({entry.substr(0, eq), entry.substr(eq + 1)});
  }
  return requests;
}

}  // namespace fleetsim
