// A job's GPUs asked for in the words of the schedulers users know (docs/trace-formats.md,
// "Requests in Slurm and Kubernetes words"): a Slurm GRES request ("gpu:h100:8") and Kubernetes
// resource requests ({"nvidia.com/gpu": 2}, {"nvidia.com/mig-1g.10gb": 1, "cpu": "8"}). Each is
// read into the job model (gpus, gpu_models, sharing, gpu_memory_gb, host CPU and memory) and kept
// as written in JobRequest::gres / JobRequest::resources, so outputs can show it back. The native
// formats (job objects, native CSV) and the sacct reader all go through these functions. Internal
// to the fleetsim libraries. Pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fleetsim/workload/job.h"

namespace fleetsim {

// The job fields a request in users' words sets: "gres" sets the GPU fields (gpus, max_gpus,
// gpu_models, sharing, gpu_milli, gpu_memory_gb), "resources" those and host CPU and memory
// (cpu_milli, memory_mib). A job that gives the words may not also give these fields.
const std::vector<std::string>& FieldsSetByGres();
const std::vector<std::string>& FieldsSetByResources();

// Whether `field` (a native field name) is set by the words `r` was given in: the writers leave
// such fields out, so that what they write reads back.
bool SetByRequestWords(const JobRequest& r, std::string_view field);

// `count` GPUs of the given GRES types (as Slurm names them after "gpu:"): a model or family name
// ("h100", "a100") is added to the models the job accepts; a MIG type ("1g.10gb",
// "a100_3g.20gb") makes a MIG job of one instance of that profile's memory, on that model if it
// names one. Returns the problem ("expected ..., found ...") or nullopt when it was read.
std::optional<std::string> SetGpusOfTypes(std::int64_t count, const std::vector<std::string>& types,
                                          JobRequest& r);

// A Slurm --gres request for GPUs: "gpu", "gpu:8", "gpu:h100:8", "gpu:a100_3g.20gb:1" or
// "gpu:1g.10gb" (count 1 when left out, as Slurm reads it). Sets the GPU fields and `r.gres`.
// Returns the problem or nullopt.
std::optional<std::string> ApplyGres(std::string_view text, JobRequest& r);

// One Kubernetes resource request: its name and its value as written ("2", "500m", "64Gi").
struct ResourceRequest {
  std::string name;
  std::string value;
};

// Kubernetes resource requests: "nvidia.com/gpu" (whole GPUs), "nvidia.com/mig-<profile>" (one
// MIG instance), "cpu" and "memory" (quantities, for the whole job). At least one GPU resource or
// "cpu" must be given. Sets the fields and `r.resources` ("name=value" joined by ',', in name
// order, so that the text does not depend on the order the input gave them in). Returns the
// problem or nullopt.
std::optional<std::string> ApplyResources(const std::vector<ResourceRequest>& requests,
                                          JobRequest& r);

// The words one job gave, as a reader found them: the "gres" text, the "resources" requests (each
// absent when not given), and every other field it gave, with the value as the format shows it.
struct GivenRequestWords {
  std::optional<std::string> gres;
  std::optional<std::vector<ResourceRequest>> resources;
  std::vector<std::pair<std::string, std::string>> fields;  // (name, value shown)
};

// A problem with the words: the field it concerns ("gres", "resources" or one they set) and
// what is wrong ("expected ..., found ...").
struct RequestWordsProblem {
  std::string field;
  std::string message;
};

// The rules every reader applies: at most one of gres and resources; none of the fields they
// set beside them (a problem for each); then the words read into `r` (ApplyGres,
// ApplyResources). Empty when the job gave no words or they were read.
std::vector<RequestWordsProblem> ApplyRequestWords(const GivenRequestWords& given, JobRequest& r);

// The requests of a `resources` text as ApplyResources writes it ("nvidia.com/gpu=2,cpu=8");
// nullopt when an entry is not "name=value".
std::optional<std::vector<ResourceRequest>> SplitResources(std::string_view text);

}  // namespace fleetsim
