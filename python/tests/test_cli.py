"""Python policies in the fleetsim command: --policy-module on run, bench, sweep and export, and
its errors (exit 3 with the traceback for a policy that raises; exit 1 for a module that cannot be
loaded)."""
import json
import subprocess

from conftest import BENCHMARK, CLI, EXAMPLES, TINY

MODULE = str(EXAMPLES / "policies.py")


def fleetsim(*args, cwd=None):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, cwd=cwd)


def test_run_with_a_python_policy_matches_the_cpp_fifo(tmp_path):
    python = fleetsim("run", TINY, "--policy-module", MODULE, "--policy", "python-fifo",
                      "--out", tmp_path / "py")
    assert python.returncode == 0, python.stderr
    cpp = fleetsim("run", TINY, "--policy", "fifo", "--out", tmp_path / "cpp")
    assert cpp.returncode == 0, cpp.stderr
    assert (tmp_path / "py" / "jobs.csv").read_text() == (tmp_path / "cpp" / "jobs.csv").read_text()


def test_list_policies_shows_the_module_policies():
    listed = fleetsim("list", "policies", "--policy-module", MODULE)
    assert listed.returncode == 0, listed.stderr
    assert "python-fifo" in listed.stdout and "sjf" in listed.stdout


def test_bench_runs_python_policies_beside_builtins(tmp_path):
    out = tmp_path / "bench.json"
    bench = fleetsim("bench", *BENCHMARK[:2], "--policy-module", MODULE, "-p", "fifo,sjf",
                     "--json", out)
    assert bench.returncode == 0, bench.stderr
    assert "sjf" in bench.stdout
    assert {r["policy"] for r in json.loads(out.read_text())["results"]} == {"fifo", "sjf"}


def test_sweep_runs_python_policies_on_threads(tmp_path):
    (tmp_path / "tiny.json").write_text(TINY.read_text())
    spec = tmp_path / "sweep.json"
    spec.write_text(json.dumps({
        "format_version": 1, "kind": "sweep", "name": "py", "base": ["tiny.json"],
        "axes": [{"name": "policy", "values": ["python-fifo", "sjf", "fifo"]},
                 {"name": "seed", "values": [1, 2, 3]}]}))
    sweep = fleetsim("sweep", spec, "--policy-module", MODULE, "-j", "2", "--out", tmp_path / "o")
    assert sweep.returncode == 0, sweep.stderr
    results = (tmp_path / "o" / "results.csv").read_text()
    assert results.count("python-fifo") == 3 and results.count(",sjf,") == 3


def test_export_reruns_a_python_policy_given_its_module(tmp_path):
    run = fleetsim("run", TINY, "--policy-module", MODULE, "--policy", "sjf",
                   "--out", tmp_path / "run")
    assert run.returncode == 0, run.stderr
    out = tmp_path / "jobs.sacct"
    without = fleetsim("export", tmp_path / "run", "--scenario", TINY, "--sacct", out)
    assert without.returncode == 1 and "--policy-module" in without.stderr and not out.exists()
    exported = fleetsim("export", tmp_path / "run", "--scenario", TINY, "--sacct", out,
                        "--policy-module", MODULE)
    assert exported.returncode == 0, exported.stderr
    assert out.read_text().startswith("JobID|User|Account|Partition|Submit|Start|End|")


def test_a_policy_that_raises_exits_3_with_the_traceback(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text(
        "import fleetsim\n\n"
        "@fleetsim.policy('bad')\n"
        "class Bad(fleetsim.Policy):\n"
        "    def decide(self, view, planner):\n"
        "        return [fleetsim.Start(view.queue.front(), 'GPUs 0-3')]\n")
    run = fleetsim("run", TINY, "--policy-module", module, "--policy", "bad")
    assert run.returncode == 3, run.stderr
    assert "policy 'bad' failed in its call 1" in run.stderr
    assert "TypeError" in run.stderr and "bad.py(6)" in run.stderr


def test_module_errors_exit_1_naming_the_file(tmp_path):
    missing = fleetsim("run", TINY, "--policy-module", tmp_path / "none.py")
    assert missing.returncode == 1 and "none.py: No such file" in missing.stderr
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    none = fleetsim("run", TINY, "--policy-module", empty)
    assert none.returncode == 1 and "registers no policy" in none.stderr
    broken = tmp_path / "broken.py"
    broken.write_text("import fleetsim\nraise ValueError('half written')\n")
    raised = fleetsim("run", TINY, "--policy-module", broken)
    assert raised.returncode == 1 and "ValueError: half written" in raised.stderr
    clash = tmp_path / "clash.py"
    clash.write_text("import fleetsim\n@fleetsim.policy('fifo')\nclass F(fleetsim.Policy):\n"
                     "    pass\n")
    taken = fleetsim("run", TINY, "--policy-module", clash)
    assert taken.returncode == 1 and "exists already" in taken.stderr


def test_a_failed_python_run_reads_the_same_from_any_folder(tmp_path):
    """The failure text names the module as the command did, not by an absolute path (issue 19)."""
    outputs = []
    for folder in ("a", "b/c"):
        where = tmp_path / folder
        (where / "py").mkdir(parents=True)
        (where / "py" / "failing.py").write_text(
            "import fleetsim\n"
            "@fleetsim.policy('failing')\n"
            "class Failing(fleetsim.Policy):\n"
            "    def decide(self, view, planner):\n"
            "        raise RuntimeError('asked to fail')\n")
        (where / "tiny.json").write_text(TINY.read_text())
        (where / "sweep.json").write_text(json.dumps({
            "format_version": 1, "kind": "sweep", "name": "f", "base": ["tiny.json"],
            "axes": [{"name": "policy", "values": ["failing", "fifo"]}]}))
        sweep = fleetsim("--policy-module", "py/failing.py", "sweep", "sweep.json", "--out", "o",
                         cwd=where)
        assert sweep.returncode == 6, sweep.stderr
        outputs.append((where / "o" / "results.csv").read_text())
    assert outputs[0] == outputs[1]
    assert "RuntimeError: asked to fail" in outputs[0]
    assert "py/failing.py(5): decide" in outputs[0] and str(tmp_path) not in outputs[0]


def test_the_example_script_prints_the_benchmark_table():
    import sys
    script = EXAMPLES / "run_benchmark.py"
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if "python-fifo" in line]
    assert len(rows) == 2 * 7  # the scheduling table, then the interruptions and cost table


def test_cmake_install_puts_the_module_where_debian_s_python_finds_it(tmp_path):
    import os
    import sys
    build, cmake = os.environ["FLEETSIM_BUILD_DIR"], os.environ["FLEETSIM_CMAKE"]
    installed = subprocess.run([cmake, "--install", build, "--prefix", str(tmp_path)],
                               capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    folder = tmp_path / os.environ["FLEETSIM_PYTHON_INSTALL_DIR"]
    assert folder.parts[-2:] == (f"python3.{sys.version_info.minor}", "dist-packages")
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    environment["PYTHONPATH"] = str(folder)
    imported = subprocess.run(
        [sys.executable, "-c", "import fleetsim; print(fleetsim.__file__)"],
        capture_output=True, text=True, env=environment, cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith(str(folder))
