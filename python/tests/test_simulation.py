"""A run in steps: its state between the steps, and the same result as one run to the end."""
import json

import pytest

import fleetsim
from conftest import BENCHMARK, TINY


def test_stepping_gives_the_one_shot_result_on_every_benchmark_scenario():
    for path in BENCHMARK:
        scenario = fleetsim.load_scenario(path)
        simulation = fleetsim.Simulation(scenario, policy="constraint-aware")
        for hour in range(1, 200, 7):
            simulation.run_until(hour * 3600.0)
        simulation.run()
        assert simulation.over
        stepped = simulation.finish()
        whole = fleetsim.run(scenario, policy="constraint-aware")
        assert stepped.jobs_csv == whole.jobs_csv, path.name
        assert stepped.summary == whole.summary, path.name


def test_the_state_between_steps():
    simulation = fleetsim.Simulation(fleetsim.load_scenario(TINY), policy="fifo")
    simulation.run_until(200)
    # Without a stop time the clock reads the last event (eval-d's arrival), as a run to the
    # end would: stepping never stretches the run.
    assert simulation.now_s == 180 and not simulation.over
    view = simulation.view()
    assert [view.request(job).id for job in view.queue] == ["train-b", "eval-c", "eval-d"]
    running = view.running()
    assert [view.request(r.job).id for r in running] == ["train-a"]
    assert running[0].placement.gpus == [0, 1, 2, 3]
    assert view.free_capacity() == {"total": 4, "pools": {"": 4}, "domains": [4]}
    simulation.run_until(7300)
    with pytest.raises(RuntimeError, match="valid only during"):
        view.queue
    view = simulation.view()
    assert [view.request(r.job).id for r in view.running()] == ["train-b"]
    result = simulation.finish()  # ends the run now: only train-a has finished
    assert result.metrics["jobs_completed"] == 1
    assert list(result.jobs["state"]) == ["completed", "running", "queued", "queued", "queued",
                                          "rejected", "queued"]
    with pytest.raises(RuntimeError, match="finished"):
        simulation.run_until(1e6)


def test_finishing_before_the_first_step_ends_the_run_at_zero():
    # Once a segmentation fault: the metrics' observers had not seen the run start.
    for policy in ("fifo", "backfill", "constraint-aware"):
        result = fleetsim.Simulation(fleetsim.load_scenario(TINY), policy=policy).finish()
        assert result.metrics["jobs_completed"] == 0, policy
        assert result.metrics["utilization"] == 0, policy
        assert set(result.jobs["state"]) == {"not-submitted"}, policy


def test_a_scenario_with_a_stop_time_stops_there():
    simulation = fleetsim.Simulation(fleetsim.load_scenario(TINY.parent / "mixed-until.json"))
    until = fleetsim.load_scenario(TINY.parent / "mixed-until.json").until_s
    simulation.run_until(until * 10)
    assert simulation.now_s == until and simulation.over


def test_run_until_checks_its_argument():
    simulation = fleetsim.Simulation(fleetsim.load_scenario(TINY))
    with pytest.raises(ValueError, match="run_until"):
        simulation.run_until(-1)


def test_the_view_lists_the_tenants():
    document = json.loads(TINY.read_text())
    document["tenants"] = [{"name": "research", "shares": 3}, {"name": "prod", "shares": 1}]
    simulation = fleetsim.Simulation(fleetsim.load_scenario(document))
    simulation.run_until(10)
    tenants = simulation.view().tenants
    assert [(t["name"], t["shares"]) for t in tenants] == [("research", 3.0), ("prod", 1.0)]
