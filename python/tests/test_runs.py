"""Loading scenarios and running them from Python: results as dicts and DataFrames with the columns
of the CSV files, errors as exceptions carrying every problem."""
import csv
import io
import json

import pandas
import pytest

import fleetsim
from conftest import BENCHMARK, TINY, tiny_dict


def test_load_from_path_and_from_dict_give_the_same_runs():
    from_path = fleetsim.load_scenario(TINY)
    from_dict = fleetsim.load_scenario(tiny_dict())
    assert from_path.name == from_dict.name == "tiny-contended"
    assert from_path.fleet_gpus == 8 and from_path.policy == "fifo"
    assert fleetsim.run(from_path).jobs_csv == fleetsim.run(from_dict).jobs_csv


def test_a_bad_scenario_raises_with_every_problem_at_its_json_pointer():
    document = tiny_dict(fleet={"gpus": -1}, policy={"name": "fifoo"})
    document["jobs"][1]["gpus"] = "eight"
    with pytest.raises(fleetsim.ScenarioError) as raised:
        fleetsim.load_scenario(document)
    where = {problem["where"] for problem in raised.value.problems}
    assert {"/fleet/gpus", "/policy/name", "/jobs/1/gpus"} <= where
    assert "did you mean 'fifo'" in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_unreadable_and_invalid_files_raise_with_the_path(tmp_path):
    with pytest.raises(fleetsim.ScenarioError, match="No such file"):
        fleetsim.load_scenario(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "x",\n "fleet": ')
    with pytest.raises(fleetsim.ScenarioError, match=r"broken\.json:2"):
        fleetsim.load_scenario(broken)
    with pytest.raises(TypeError):
        fleetsim.load_scenario(42)


def test_strict_turns_unknown_keys_into_errors():
    document = tiny_dict(colour="blue")
    assert fleetsim.load_scenario(document).warnings
    with pytest.raises(fleetsim.ScenarioError, match="colour"):
        fleetsim.load_scenario(document, strict=True)


def test_run_summary_and_frames_match_the_csv_files():
    result = fleetsim.run(fleetsim.load_scenario(TINY), policy="backfill", seed=3, timeline=True)
    assert (result.scenario, result.policy, result.seed) == ("tiny-contended", "backfill", 3)
    summary = result.summary
    assert summary["policy"]["name"] == "backfill"
    assert 0 < result.metrics["utilization"] <= 1
    jobs = result.jobs
    header = next(csv.reader(io.StringIO(result.jobs_csv)))
    assert list(jobs.columns) == header
    assert len(jobs) == 7
    assert jobs.set_index("id").loc["huge-f", "state"] == "rejected"
    assert (jobs["end_s"][jobs["state"] == "completed"] > 0).all()
    timeline = result.timeline
    assert list(timeline.columns) == ["id", "start_s", "end_s", "gpu_share", "kind", "priority",
                                      "realtime", "gpus"]
    assert set(timeline["id"]) == set(jobs["id"][jobs["state"] == "completed"])
    series = result.timeseries
    assert list(series.columns) == next(csv.reader(io.StringIO(result.timeseries_csv)))
    fleet = series[series["pool"] == "*"]
    hours = (fleet["end_s"] - fleet["start_s"]) / 3600
    # GPU-time held, summed over the slices, is the timeline's (up to the printed decimals).
    held = (timeline["gpu_share"] * (timeline["end_s"] - timeline["start_s"]) / 3600).sum()
    assert abs((fleet["gpus_held"] * hours).sum() - held) < 1e-2 * max(held, 1)


def test_comparison_of_several_runs_is_comparison_csv():
    scenario = fleetsim.load_scenario(TINY)
    results = [fleetsim.run(scenario, policy=name) for name in ("fifo", "backfill", "fair-share")]
    frame = fleetsim.comparison(results)
    assert list(frame["policy"]) == ["fifo", "backfill", "fair-share"]
    assert frame.columns[0] == "scenario" and "priority_weighted_output" in frame.columns
    assert fleetsim.comparison_csv(results).startswith("scenario,policy,seed,")
    assert "fair-share" in fleetsim.table(results)


def test_params_are_checked_as_in_a_scenario_file():
    scenario = fleetsim.load_scenario(TINY)
    result = fleetsim.run(scenario, policy="backfill", params={"mode": "conservative"})
    assert result.summary["policy"]["params"]["mode"] == "conservative"
    with pytest.raises(fleetsim.ScenarioError) as raised:
        fleetsim.run(scenario, policy="backfill", params={"mode": "lazy", "depth": 3})
    where = {problem["where"] for problem in raised.value.problems}
    assert where == {"/policy/params/mode", "/policy/params/depth"}
    with pytest.raises(ValueError, match="did you mean 'backfill'"):
        fleetsim.run(scenario, policy="backfil")


def test_every_benchmark_scenario_runs_deterministically():
    for path in BENCHMARK:
        scenario = fleetsim.load_scenario(path)
        first = fleetsim.run(scenario, policy="constraint-aware")
        second = fleetsim.run(scenario, policy="constraint-aware")
        assert first.jobs_csv == second.jobs_csv
        assert json.dumps(first.summary) == json.dumps(second.summary)


def test_policies_lists_the_builtins_with_their_parameters():
    names = [p["name"] for p in fleetsim.policies()]
    assert names[:2] == ["fifo", "backfill"] or "fifo" in names
    backfill = next(p for p in fleetsim.policies() if p["name"] == "backfill")
    assert any(param["name"] == "mode" for param in backfill["params"])
    assert "topology-aware" in fleetsim.placement_strategies()


def test_run_sweep_gives_the_results_of_fleetsim_sweep(tmp_path):
    base = tmp_path / "tiny.json"
    base.write_text(TINY.read_text())
    spec = tmp_path / "sweep.json"
    spec.write_text(json.dumps({
        "format_version": 1, "kind": "sweep", "name": "tiny-policies", "base": ["tiny.json"],
        "axes": [{"name": "policy", "values": ["fifo", "backfill"]},
                 {"name": "seed", "values": [1, 2]}]}))
    result = fleetsim.run_sweep(spec, threads=2)
    assert result.failures == []
    frame = result.results
    assert len(frame) == 4
    assert set(frame["policy"]) == {"fifo", "backfill"}
    assert isinstance(result.summary, pandas.DataFrame)


def test_run_sweep_failures_read_the_same_on_any_number_of_threads(tmp_path):
    """A policy that raises is described by its own frames only, not by the frames of the script
    that called run_sweep (on one thread the policy runs on the caller's)."""
    class Failing(fleetsim.Policy):
        def decide(self, view, planner):
            raise RuntimeError("asked to fail")
    fleetsim.register_policy(Failing, name="fails-in-a-sweep")
    (tmp_path / "tiny.json").write_text(TINY.read_text())
    spec = tmp_path / "sweep.json"
    spec.write_text(json.dumps({
        "format_version": 1, "kind": "sweep", "name": "fails", "base": ["tiny.json"],
        "axes": [{"name": "policy", "values": ["fails-in-a-sweep", "fifo"]}]}))
    one = fleetsim.run_sweep(spec, threads=1)
    two = fleetsim.run_sweep(spec, threads=2)
    assert one.results_csv == two.results_csv
    assert "RuntimeError: asked to fail" in one.results_csv
    assert "test_runs.py" in one.results_csv  # the policy's own frame
    assert "test_run_sweep_failures" not in one.results_csv  # not the caller's


def test_a_number_json_cannot_hold_is_reported_at_its_json_pointer():
    document = tiny_dict()
    document["jobs"][1]["duration_s"] = float("nan")
    with pytest.raises(fleetsim.ScenarioError) as error:
        fleetsim.load_scenario(document)
    assert str(error.value) == "<dict>: /jobs/1/duration_s: error: expected a finite number, found nan"
    assert error.value.problems == [{"where": "/jobs/1/duration_s", "severity": "error",
                                     "message": "expected a finite number, found nan"}]
    with pytest.raises(fleetsim.ScenarioError, match="<params>: /policy/params/decay: error: "
                                                     "expected a finite number, found inf"):
        fleetsim.run(fleetsim.load_scenario(TINY), policy="constraint-aware",
                     params={"decay": float("inf")})


def test_run_sweep_checks_its_arguments(tmp_path):
    with pytest.raises(TypeError, match="run_sweep: spec must be the path of a sweep spec file"):
        fleetsim.run_sweep({"kind": "sweep"})
    for threads in (0, -1, 2**40):
        with pytest.raises(ValueError, match=r"run_sweep: threads must be in \[1, 4096\], found"):
            fleetsim.run_sweep(tmp_path / "none.json", threads=threads)


def test_a_scenario_describes_its_fleet():
    scenario = fleetsim.load_scenario(TINY.parent / "mixed-fleet.json")
    pools = scenario.pools
    assert pools and sum(pool["gpus"] for pool in pools) == scenario.fleet_gpus
    assert {"name", "gpu", "nodes", "gpus_per_node", "tier", "price_per_gpu_hour",
            "mig"} <= set(pools[0])
    assert pools[0]["name"] in scenario.fleet_summary
