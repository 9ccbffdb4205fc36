"""The native core under AddressSanitizer + UndefinedBehaviorSanitizer (issues 16 and 19).

Builds the sanitizer variant of envs._core (CMake option TW16_SANITIZE: ``-fsanitize=address,undefined``,
``-O1``, g++) into build/sanitize/ (kept between runs: a rebuild compiles only what changed), then
runs tests/sanitize_driver.py in subprocesses that preload ASan's runtime and load that build as
``envs._core``: random and greedy play with the invariant checker on every profile, batch steps with
the encoders and the agents' kernels, scoring of random hands, the hand analysis on garbage counts,
and a fuzz of every binding with wrong shapes, dtypes, layouts and values. Any sanitizer report
(``ERROR: AddressSanitizer``, ``runtime error:``) or a non-zero exit fails the test.

test_sanitizer_is_live proves the check can fail: the core must be linked against the sanitizers,
and a read by the core of memory poisoned with ASan's API must end the process with an ASan report
that the detector below recognises.

The ``threads`` phase (tests/thread_stress.py) also runs under ThreadSanitizer, in a separate build
(CMake option TW16_TSAN, build/tsan/) loaded into the uninstrumented interpreter with libtsan
preloaded, without suppressions; test_thread_sanitizer_is_live proves TSan reports a race in the core.

Skipped where g++, CMake or the sanitizer's runtime is missing. TW16_SANITIZE_SCALE (default 1) scales the
work of every phase.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "sanitize"
TSAN_BUILD = ROOT / "build" / "tsan"
DRIVER = ROOT / "tests" / "sanitize_driver.py"
SCALE = max(1, int(os.environ.get("TW16_SANITIZE_SCALE", "1")))
REPORT_MARKERS = (
    "ERROR: AddressSanitizer",
    "runtime error:",
    "ERROR: LeakSanitizer",
    "AddressSanitizer: CHECK failed",
    "WARNING: ThreadSanitizer",
    "ThreadSanitizer: CHECK failed",
    "FATAL: ThreadSanitizer",
)


def _tool(name):
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    return found


def _gxx_file(name):
    out = subprocess.run(["g++", f"-print-file-name={name}"], capture_output=True, text=True).stdout.strip()
    return os.path.realpath(out) if out and os.path.isabs(out) and os.path.exists(out) else None


def _module_path(folder: Path):
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    p = folder / f"_core{suffix}"
    return p if p.exists() else None


def _build(folder: Path, option: str):
    """Configure (once) and build the core with a sanitizer option into folder; its module path."""
    cmake = _tool("cmake")
    if not (folder / "CMakeCache.txt").exists():
        gen = ["-G", "Ninja"] if _tool("ninja") else []
        cfg = [
            cmake,
            "-S",
            str(ROOT),
            "-B",
            str(folder),
            *gen,
            f"-D{option}=ON",
            "-DCMAKE_BUILD_TYPE=Debug",
            "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1",
            "-DCMAKE_CXX_COMPILER=g++",
            f"-DPython_EXECUTABLE={sys.executable}",
        ]
        r = subprocess.run(cfg, capture_output=True, text=True)
        if r.returncode:
            shutil.rmtree(folder, ignore_errors=True)  # (a half-configured folder would be reused)
            pytest.fail(f"configuring the {option} build failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    r = subprocess.run(
        [cmake, "--build", str(folder), "--parallel", str(os.cpu_count() or 2)], capture_output=True, text=True
    )
    assert r.returncode == 0, f"the {option} build failed:\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"
    so = _module_path(folder)
    assert so is not None, f"no _core module in {folder}"
    return so


def _base_env(runtime: str, libstdcxx: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    # libstdc++ with the sanitizer: its __cxa_throw interceptor needs the real one at start-up (python
    # does not link libstdc++ itself)
    env["LD_PRELOAD"] = f"{runtime} {libstdcxx}"
    return env


def _needs_toolchain(runtime_name: str):
    if not sys.platform.startswith("linux"):
        pytest.skip("the sanitizer builds are set up for Linux (g++, libasan / libtsan)")
    if not _tool("cmake") or not _tool("g++"):
        pytest.skip("needs cmake and g++")
    runtime, libstdcxx = _gxx_file(runtime_name), _gxx_file("libstdc++.so")
    if not runtime or not libstdcxx:
        pytest.skip(f"g++ has no {runtime_name} / libstdc++.so")
    return runtime, libstdcxx


@pytest.fixture(scope="module")
def asan():
    """(path of the sanitizer build of envs._core, environment for a subprocess that loads it)."""
    libasan, libstdcxx = _needs_toolchain("libasan.so")
    so = _build(BUILD, "TW16_SANITIZE")
    env = _base_env(libasan, libstdcxx)
    env["ASAN_OPTIONS"] = "detect_leaks=0"  # CPython keeps its objects at exit by design
    env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    env["PYTHONMALLOC"] = "malloc"  # Python's own allocations through ASan too
    return so, env


@pytest.fixture(scope="module")
def tsan():
    """The ThreadSanitizer build (build/tsan) and its environment. The interpreter and numpy are not
    instrumented: TSan sees the core's accesses and every pthread lock (the GIL included, so what the
    GIL orders is ordered for TSan too). No suppressions."""
    libtsan, libstdcxx = _needs_toolchain("libtsan.so")
    so = _build(TSAN_BUILD, "TW16_TSAN")
    env = _base_env(libtsan, libstdcxx)
    env["TSAN_OPTIONS"] = "halt_on_error=1:second_deadlock_stack=1:report_signal_unsafe=0"
    return so, env


def sanitizer_report(proc) -> str | None:
    """The reason a driver run failed (a sanitizer report, an exit code), or None."""
    for m in REPORT_MARKERS:
        i = proc.stderr.find(m)
        if i >= 0:
            return proc.stderr[max(0, i - 200) : i + 6000]
    if proc.returncode != 0:
        return f"exit code {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr[-6000:]}"
    return None


def run_driver(asan, phase, timeout=900):
    so, env = asan
    return subprocess.run(
        [sys.executable, str(DRIVER), phase, "--core", str(so), "--scale", str(SCALE)],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        cwd=str(ROOT),
    )


def _summary(proc):
    line = proc.stdout.strip().splitlines()[-1]
    return json.loads(line)


def test_sanitizer_is_live(asan):
    so, _ = asan
    nm = _tool("nm")
    if nm:  # the core's code calls into both runtimes
        syms = subprocess.run([nm, "-D", "--undefined-only", str(so)], capture_output=True, text=True).stdout
        assert "__asan_report_load" in syms, "the core is not instrumented by ASan"
        assert "__ubsan_handle_" in syms, "the core is not instrumented by UBSan"
    p = run_driver(asan, "proof", timeout=300)
    assert "SANITIZER-PROOF: calling the core on poisoned memory" in p.stdout, p.stdout + p.stderr[-3000:]
    assert "NOT REPORTED" not in p.stdout, "ASan did not report the core's read of poisoned memory"
    report = sanitizer_report(p)
    assert report is not None and p.returncode != 0
    assert "ERROR: AddressSanitizer: use-after-poison" in report, report
    assert "bind_hand.cpp" in p.stderr, "the report does not point into the core's code"


@pytest.mark.parametrize("phase", ["play", "score", "fuzz", "threads"])
def test_under_sanitizers(asan, phase):
    p = run_driver(asan, phase)
    report = sanitizer_report(p)
    assert report is None, f"{phase} under ASan + UBSan:\n{report}"
    s = _summary(p)
    print(f"\n[test_sanitize] {phase}: {json.dumps(s[phase])} ({s['seconds']} s under the sanitizers)")


def test_thread_sanitizer_is_live(tsan):
    """Two threads writing one array through a core function that holds nothing: TSan must report
    the data race, in the core's code (so a race in the threads phase would be seen)."""
    p = run_driver(tsan, "race_proof", timeout=300)
    assert "SANITIZER-PROOF: two threads writing one array in the core" in p.stdout, p.stdout + p.stderr[-3000:]
    assert "NOT REPORTED" not in p.stdout, "TSan did not report the race"
    report = sanitizer_report(p)
    assert report is not None and "WARNING: ThreadSanitizer: data race" in report, report
    assert "random_complete" in p.stderr or "bind_hand.cpp" in p.stderr, "the report does not point into the core"


def test_threads_under_thread_sanitizer(tsan):
    """The threads phase (tests/thread_stress.py: shared engines, two and four threads) under TSan:
    no data race, no lock misuse reported."""
    p = run_driver(tsan, "threads")
    report = sanitizer_report(p)
    assert report is None, f"threads under ThreadSanitizer:\n{report}"
    s = _summary(p)
    print(f"\n[test_sanitize] threads (TSan): {json.dumps(s['threads'])} ({s['seconds']} s)")
