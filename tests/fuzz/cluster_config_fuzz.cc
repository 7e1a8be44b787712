// Fuzz target: the cluster configuration importers (import-fleet): the input read as a slurm.conf,
// as the topology.conf of a fixed slurm.conf of GB200 and H100 nodes, as a Kubernetes node list
// and as KAI queues (JSON or YAML, as its first character says). Whatever the input, an import
// either fails with a message or gives a fleet (or tenants) a scenario loads without error.
#include <string>

#include "fleetsim/cluster_config/kai_queues.h"
#include "fleetsim/cluster_config/kubernetes_nodes.h"
#include "fleetsim/cluster_config/slurm_config.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/scenario.h"
#include "fuzz_input.h"

namespace {

using namespace fleetsim;

// A scenario around the imported fleet or tenants must load.
void CheckLoads(const std::string& section, const std::string& json_text) {
  static const PolicyRegistry registry = BuiltinPolicies();
  const std::string fleet = section == "fleet" ? json_text : R"({"gpus": 8})";
  const std::string tenants = section == "tenants" ? ", \"tenants\": " + json_text : "";
  const std::string scenario = R"({"format_version": 1, "name": "fuzz", "fleet": )" + fleet +
                               tenants + R"(, "jobs": [{"id": "j", "gpus": 1, "duration_s": 1}]})";
  const LoadResult loaded = ParseScenario(scenario, "fuzz.json", registry, {});
  if (!loaded.scenario) {
    fuzz::PropertyFailed("an imported " + section + " does not load: " +
                         loaded.diagnostics.Format("fuzz.json") + loaded.file_status.message());
  }
}

// Hosts a fuzzed topology.conf may place: GB200 nodes, whose NVLink blocks make domains, and H100.
constexpr const char* kTopologySlurmConf =
    "NodeName=gb[01-38] Gres=gpu:gb200:4\nNodeName=h100-[1-4] Gres=gpu:h100:8\n"
    "NodeName=hpcbench-hpc-[1-72] Gres=gpu:gb200:4\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string slurm_conf = fuzz::WriteInputFile(data, size, "slurm.conf");
  SlurmImportOptions slurm;
  slurm.types = {{kUntypedGpu, "H100-SXM"}, {"a100", "A100-80GB"}, {"v100", "V100-32GB"}};
  if (const SlurmImport imported = ImportSlurmFleet(slurm_conf, "", slurm); imported.status.ok()) {
    CheckLoads("fleet", FleetFileText(imported.fleet));
  }
  SlurmImportOptions with_topology;
  with_topology.topology = slurm_conf;
  static const std::string companion =
      fuzz::ProcessFolder("cluster_config", "slurm.conf", kTopologySlurmConf) + "/slurm.conf";
  if (const SlurmImport imported = ImportSlurmFleet(companion, "", with_topology);
      imported.status.ok()) {
    CheckLoads("fleet", FleetFileText(imported.fleet));
  }
  const std::string nodes = fuzz::WriteInputFile(data, size, "nodes.yaml");
  KubernetesImportOptions kubernetes;
  kubernetes.types = slurm.types;
  if (const KubernetesImport imported = ImportKubernetesNodes(nodes, kubernetes);
      imported.status.ok()) {
    CheckLoads("fleet", FleetFileText(imported.fleet));
  }
  if (const KaiImport queues = ImportKaiQueues(nodes); queues.status.ok()) {
    CheckLoads("tenants", queues.tenants.dump());
  }
  return 0;
}
