"""What driving runs from Python adds to their C++ time (issue target: under 10 % over 1,000 runs
of the seven benchmark scenarios). Each run is fleetsim.run() with timing on: the C++ run measures
its own wall time (summary.json's timing.wall_seconds, from building the workload to the report),
and this script measures the whole call from Python (choosing and checking the policy, releasing
the global lock, wrapping the result). The overhead is the Python wall time over the sum of the C++
times, minus one. Whole-run timing, not a unit test: run it on a quiet machine.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python/drive_overhead.py [RUNS]
"""
import pathlib
import sys
import time

import fleetsim

ROOT = pathlib.Path(__file__).resolve().parents[2]
POLICIES = ("fifo", "backfill", "fair-share", "constraint-aware")


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 1008
    scenarios = [fleetsim.load_scenario(p)
                 for p in sorted((ROOT / "scenarios" / "benchmark").glob("0*.json"))]
    work = [(s, p) for s in scenarios for p in POLICIES]
    results = []
    start = time.perf_counter()
    for i in range(runs):
        scenario, policy = work[i % len(work)]
        results.append(fleetsim.run(scenario, policy=policy, seed=1 + i // len(work),
                                    timing=True))
    python_seconds = time.perf_counter() - start
    cpp_seconds = sum(r.summary["timing"]["wall_seconds"] for r in results)
    print(f"{runs} runs of the seven benchmark scenarios under {', '.join(POLICIES)}")
    print(f"from Python: {python_seconds:.3f} s; their C++ time: {cpp_seconds:.3f} s; "
          f"Python adds {100 * (python_seconds / cpp_seconds - 1):.1f} %")


if __name__ == "__main__":
    main()
