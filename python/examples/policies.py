"""Two scheduling policies written in Python, registered with fleetsim (docs/writing-a-policy.md).

- python-fifo: the built-in fifo, line for line: jobs start in submission order where the shared
  placement helper puts them, and when the head of the queue cannot be placed nothing behind it
  starts. It gives byte-identical results to the C++ fifo (python/tests/test_policies.py).
- sjf: shortest job first by the user's walltime estimate (jobs without one go last, ties in
  submission order); every job the placement helper can place starts now, so a job that does not
  fit never holds back the ones behind it. The C++ version is docs/writing-a-policy.md's example.

Use them from Python (`import policies`, then fleetsim.run(scenario, policy="sjf")) or from the
command: fleetsim run --policy-module python/examples/policies.py --policy sjf SCENARIO.
"""
import fleetsim

PLACEMENT = {
    "name": "placement",
    "type": "choice",
    "default": "topology-aware",
    "choices": fleetsim.placement_strategies(),
    "doc": "Placement strategy of the shared helper",
}


def reserved_gpus(request):
    """The GPUs fifo reserves for a real-time job: its peak demand within [gpus, max_gpus], a power
    of two for block jobs; None lets the helper size the job."""
    if request.demand_peak is None or request.sharing != "none" or request.is_cpu_only:
        return None
    peak = min(max(request.demand_peak, request.gpus), request.max_gpus)
    if request.pow2_block:
        return 1 << (peak - 1).bit_length()
    return peak


@fleetsim.policy("python-fifo",
                 summary="fifo written in Python: arrival order with head-of-line blocking",
                 params=[PLACEMENT])
class Fifo(fleetsim.Policy):
    def __init__(self, params):
        super().__init__(params)
        self.placement = params["placement"]

    def decide(self, view, planner):
        decisions = []
        for job in view.queue:
            request = view.request(job)
            placement = planner.place(request, self.placement, reserved_gpus(request))
            if placement is None:
                break  # head-of-line blocking
            decisions.append(fleetsim.Start(job, placement))
        return decisions


@fleetsim.policy("sjf",
                 summary="Shortest walltime estimate first (jobs without one last, ties in "
                         "arrival order); any queued job that can be placed starts now.",
                 params=[PLACEMENT])
class ShortestJobFirst(fleetsim.Policy):
    def __init__(self, params):
        super().__init__(params)
        self.placement = params["placement"]

    def decide(self, view, planner):
        def order(job):
            estimate = view.request(job).walltime_estimate
            return (estimate == 0, estimate, job)

        decisions = []
        for job in sorted(view.queue, key=order):
            request = view.request(job)
            placement = planner.place(request, self.placement)
            if placement is not None:
                decisions.append(fleetsim.Start(job, placement))
        return decisions
