"""Runs the example Python policies beside the C++ fifo and constraint-aware on the seven
benchmark scenarios and prints the table `fleetsim run` prints.

    PYTHONPATH=build/release/python /usr/bin/python3 python/examples/run_benchmark.py
"""
import pathlib
import sys

import fleetsim

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import policies  # noqa: E402,F401  (registers python-fifo and sjf)

BENCHMARK = sorted((HERE.parents[1] / "scenarios" / "benchmark").glob("0*.json"))


def main():
    results = []
    for path in BENCHMARK:
        scenario = fleetsim.load_scenario(path)
        for policy in ("fifo", "python-fifo", "sjf", "constraint-aware"):
            results.append(fleetsim.run(scenario, policy=policy))
    print(fleetsim.table(results))


if __name__ == "__main__":
    main()
