"""Policies written in Python: the example fifo gives byte-identical results to the C++ fifo on
every benchmark scenario; every way a Python policy can go wrong stops the run with a clear
error naming the policy and the call."""
import json

import pytest

import fleetsim
from conftest import BENCHMARK, TINY, tiny_dict


def without_policy_name(summary):
    summary = json.loads(json.dumps(summary))
    summary["policy"].pop("name")
    return summary


def test_python_fifo_gives_the_cpp_fifo_results_on_every_benchmark_scenario(example_policies):
    assert len(BENCHMARK) == 7
    for path in BENCHMARK:
        scenario = fleetsim.load_scenario(path)
        cpp = fleetsim.run(scenario, policy="fifo")
        python = fleetsim.run(scenario, policy="python-fifo")
        assert python.policy == "python-fifo"
        assert python.jobs_csv == cpp.jobs_csv, path.name
        assert python.realtime_csv == cpp.realtime_csv, path.name
        assert without_policy_name(python.summary) == without_policy_name(cpp.summary), path.name


def test_sjf_starts_the_shortest_estimate_first(example_policies):
    document = tiny_dict(fleet={"gpus": 4}, jobs=[
        {"id": "running", "submit_s": 0, "gpus": 4, "duration_s": 100},
        {"id": "long", "submit_s": 10, "gpus": 4, "duration_s": 900, "walltime_s": 1000},
        {"id": "short", "submit_s": 20, "gpus": 4, "duration_s": 50, "walltime_s": 60},
        {"id": "unknown", "submit_s": 30, "gpus": 4, "duration_s": 10},
    ])
    jobs = fleetsim.run(fleetsim.load_scenario(document), policy="sjf").jobs.set_index("id")
    assert jobs.loc["short", "start_s"] == 100
    assert jobs.loc["long", "start_s"] == 150
    assert jobs.loc["unknown", "start_s"] == 1050
    fifo = fleetsim.run(fleetsim.load_scenario(document), policy="python-fifo").jobs.set_index("id")
    assert fifo.loc["long", "start_s"] == 100


def test_parameters_are_declared_checked_and_passed(example_policies):
    sjf = next(p for p in fleetsim.policies() if p["name"] == "sjf")
    assert [p["name"] for p in sjf["params"]] == ["placement"]
    scenario = fleetsim.load_scenario(TINY)
    result = fleetsim.run(scenario, policy="sjf", params={"placement": "first-fit"})
    assert result.summary["policy"]["params"] == {"placement": "first-fit"}
    with pytest.raises(fleetsim.ScenarioError, match="expected one of"):
        fleetsim.run(scenario, policy="sjf", params={"placement": "closest"})
    # A scenario file may name a Python policy once it is registered.
    assert fleetsim.load_scenario(tiny_dict(policy={"name": "sjf"})).policy == "sjf"


def register(name, decide, **options):
    cls = type(name, (fleetsim.Policy,), {"decide": decide})
    fleetsim.register_policy(cls, name=name, **options)
    return name


def run_tiny(policy):
    return fleetsim.run(fleetsim.load_scenario(TINY), policy=policy)


def test_a_policy_that_raises_stops_the_run_with_its_traceback():
    def decide(self, view, planner):
        raise KeyError("no such thing")
    with pytest.raises(fleetsim.PolicyError) as raised:
        run_tiny(register("raises", decide))
    message = str(raised.value)
    assert "policy 'raises' failed in its call 1 at 0d 00:00:00.000" in message
    assert "KeyError" in message and "no such thing" in message
    assert "test_policies.py" in message  # the traceback


@pytest.mark.parametrize("returned, expected", [
    ("start everything", "decision 1, expected fleetsim.Start"),
    (42, "returned a 'int', expected a list of decisions"),
    ([None], "returned a 'NoneType' as decision 1"),
])
def test_a_malformed_decision_is_named(returned, expected):
    name = register(f"malformed{abs(hash(repr(returned)))}", lambda self, view, planner: returned)
    with pytest.raises(fleetsim.PolicyError, match=expected):
        run_tiny(name)


def test_an_unknown_job_and_a_missing_gpu_are_illegal_decisions():
    def unknown_job(self, view, planner):
        return [fleetsim.Start(999, fleetsim.whole_gpus([0]))]

    def missing_gpu(self, view, planner):
        return [fleetsim.Start(view.queue.front(), fleetsim.whole_gpus([0, 1, 2, 64]))]

    with pytest.raises(fleetsim.PolicyError, match="illegal decision.*999"):
        run_tiny(register("unknown-job", unknown_job))
    with pytest.raises(fleetsim.PolicyError, match="illegal decision.*64"):
        run_tiny(register("missing-gpu", missing_gpu))
    with pytest.raises(TypeError):
        fleetsim.Start(-1, fleetsim.whole_gpus([0]))


def test_a_policy_that_loops_forever_is_stopped_by_its_call_budget():
    def forever(self, view, planner):
        while True:
            pass
    with pytest.raises(fleetsim.PolicyError, match="call budget of 0.2 s"):
        run_tiny(register("forever", forever, call_budget_s=0.2))


def test_a_view_kept_past_its_call_refuses_to_be_read():
    kept = []

    def keep(self, view, planner):
        kept.append((view, planner, iter(view.queue)))
        return []
    with pytest.raises(fleetsim.PolicyError, match="deadlock|left"):
        run_tiny(register("keeper", keep))
    view, planner, queue = kept[0]
    with pytest.raises(RuntimeError, match="valid only during"):
        view.free_whole_gpus()
    with pytest.raises(RuntimeError, match="valid only during"):
        planner.holds
    with pytest.raises(RuntimeError, match="valid only during"):
        next(queue)


def test_bad_arguments_to_the_view_raise_instead_of_crashing():
    seen = {}

    def probe(self, view, planner):
        if seen:
            return []
        seen["errors"] = []
        for call in (lambda: view.gpu(8), lambda: view.node(5), lambda: view.request(99),
                     lambda: view.free_whole_in(3),
                     lambda: planner.place(view.request(0), "first-fit", 3),
                     lambda: planner.place(view.request(0), "no-such-strategy")):
            try:
                call()
            except (IndexError, ValueError) as error:
                seen["errors"].append(type(error).__name__)
        return []
    with pytest.raises(fleetsim.PolicyError):
        run_tiny(register("probe", probe))
    assert seen["errors"] == ["IndexError", "IndexError", "IndexError", "IndexError",
                              "ValueError", "ValueError"]


def test_a_constructor_that_raises_stops_the_run():
    class Broken(fleetsim.Policy):
        def __init__(self, params):
            raise RuntimeError("cannot build")
    fleetsim.register_policy(Broken, name="broken")
    with pytest.raises(fleetsim.PolicyError, match="creating the policy raised.*cannot build"):
        run_tiny("broken")


def test_registration_is_checked():
    class NotAPolicy:
        pass
    with pytest.raises(TypeError, match="subclass of fleetsim.Policy"):
        fleetsim.register_policy(NotAPolicy, name="nope")
    good = type("Good", (fleetsim.Policy,), {})
    with pytest.raises(ValueError, match="exists already"):
        fleetsim.register_policy(good, name="fifo")
    with pytest.raises(ValueError, match="outside"):
        fleetsim.register_policy(good, name="g1", params=[
            {"name": "k", "type": "int", "default": 20, "min": 1, "max": 10}])
    with pytest.raises(ValueError, match="did you mean 'real'"):
        fleetsim.register_policy(good, name="g2", params=[
            {"name": "k", "type": "rael", "default": 1.0}])
    for bad_name in ("two words", "a\nb", "a\0b", "x" * 129, "all", ".hidden", "caf\u00e9"):
        with pytest.raises(ValueError, match="not a usable policy name"):
            fleetsim.register_policy(good, name=bad_name)
    with pytest.raises(ValueError, match="two parameters are named 'k'"):
        fleetsim.register_policy(good, name="g3", params=[
            {"name": "k", "type": "int", "default": 1, "min": 0, "max": 5},
            {"name": "k", "type": "bool", "default": False}])
    with pytest.raises(ValueError, match="parameter 'k', default: 1180591620717411303424 is "
                                         "beyond a 64-bit integer"):
        fleetsim.register_policy(good, name="g4", params=[
            {"name": "k", "type": "int", "default": 2**70, "min": 0, "max": 5}])
    assert not {"g3", "g4"} & {p["name"] for p in fleetsim.policies()}


def test_placement_helpers_and_view_queries_answer_inside_a_call():
    seen = {}

    def look(self, view, planner):
        if "free" not in seen:
            request = view.request(view.queue.front())
            seen["free"] = view.free_capacity()
            seen["strategies"] = {
                name: view.choose_placement(request, name).gpus
                for name in ("topology-aware", "first-fit", "best-fit")}
            planner.place(request)
            planner.place(request)
            seen["held"] = planner.holds
            seen["free after"] = view.free_whole_gpus()
            seen["request"] = (request.id, request.gpus, request.priority)
            try:
                view.domains_with_free_whole(-1)
            except ValueError as error:
                seen["negative count"] = str(error)
        decisions = []
        for job in view.queue:
            placement = planner.place(view.request(job))
            if placement is None:
                break
            decisions.append(fleetsim.Start(job, placement))
        return decisions
    run_tiny(register("looker", look))
    assert seen["free"] == {"total": 8, "pools": {"": 8}, "domains": [8]}
    assert seen["strategies"] == {"topology-aware": [0, 1, 2, 3], "first-fit": [0, 1, 2, 3],
                                  "best-fit": [0, 1, 2, 3]}
    assert seen["held"] == 2 and seen["free after"] == 0
    assert seen["request"] == ("train-a", 4, 2)
    assert seen["negative count"] == "domains_with_free_whole: count must be 0 or more, found -1"


def test_the_guide_shows_the_example_file_s_class():
    from conftest import EXAMPLES, SOURCE_DIR
    guide = (SOURCE_DIR / "docs" / "writing-a-policy.md").read_text()
    section = guide.split("### The same policy in Python", 1)[1]
    shown = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert shown in (EXAMPLES / "policies.py").read_text()


def test_a_queue_iterator_kept_to_the_next_call_refuses_to_go_on():
    kept = []

    def keep(self, view, planner):
        if kept:
            with pytest.raises(RuntimeError, match="valid only during"):
                next(kept[0])
            kept.append("checked")
        else:
            kept.append(iter(view.queue))
        decisions = []
        for job in view.queue:
            placement = planner.place(view.request(job))
            if placement is None:
                break
            decisions.append(fleetsim.Start(job, placement))
        return decisions
    run_tiny(register("iterator-keeper", keep))
    assert "checked" in kept


def test_an_allocation_of_a_run_that_is_over_is_refused():
    kept = []

    def first(self, view, planner):
        if view.queue:
            kept.append(planner.place(view.request(view.queue.front())))
        return []

    def reuse(self, view, planner):
        return [fleetsim.Start(view.queue.front(), kept[0])]

    with pytest.raises(fleetsim.PolicyError):
        run_tiny(register("keeps-allocation", first))
    assert "GPU 0" in repr(kept[0]) and kept[0].gpus == [0, 1, 2, 3]  # still readable
    with pytest.raises(fleetsim.PolicyError, match="Allocation of another run"):
        run_tiny(register("reuses-allocation", reuse))


def test_a_wake_up_beyond_the_range_is_an_illegal_decision():
    def far(self, view, planner):
        return [fleetsim.WakeAt(2**62)]
    with pytest.raises(fleetsim.PolicyError, match="beyond the simulator's range"):
        run_tiny(register("far-wake", far))


def test_a_generator_decide_is_held_to_the_call_budget():
    def endless(self, view, planner):
        while True:
            yield fleetsim.WakeAt(view.now + 1)
    with pytest.raises(fleetsim.PolicyError, match="call budget"):
        run_tiny(register("endless-generator", endless, call_budget_s=0.2))


def test_a_policy_cannot_step_or_finish_its_own_simulation():
    holder = {}

    def meddle(self, view, planner):
        for action in (lambda: holder["sim"].finish(), lambda: holder["sim"].run_until(10),
                       lambda: holder["sim"].view()):
            with pytest.raises(RuntimeError, match="is running"):
                action()
        holder["checked"] = True
        return [fleetsim.Reject(job, "meddler") for job in view.queue]
    register("meddler", meddle)
    holder["sim"] = fleetsim.Simulation(fleetsim.load_scenario(TINY), policy="meddler")
    holder["sim"].run()
    assert holder["checked"]
    result = holder["sim"].finish()
    assert set(result.jobs["state"]) == {"rejected"}
    assert holder["sim"].over
