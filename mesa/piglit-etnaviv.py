#!/usr/bin/env python3
"""Runs piglit shader tests through Mesa's etnaviv driver on gpucc's simulated Vivante GPU.

Each test is Debian's piglit `shader_runner` run against a Mesa build made by mesa/build.sh
(with -Dgpucc=enabled, which also builds the executing drm-shim
libetnaviv_gpucc_drm_shim.so). The shim executes every submission on gpucc's GPU model, so the
probes read what the simulated GPU drew.

The outcome of each test is compared with what Mesa's CI recorded on real hardware: a test
listed in Mesa 23.3.6's src/etnaviv/ci/etnaviv-<gpu>-fails.txt failed there (Fail, Crash or
Timeout), one listed in -flakes.txt was unreliable, one matching -skips.txt was not run; any
other test succeeded on the hardware (names compared lower-cased, as piglit names tests). Success is what the CI's runner counts as one: pass,
warn, or skip (a test that skips for a limit the driver reports skips on the hardware too,
since the driver and the values the kernel reports are the same). Writes DIR/results.csv (one row per test) and
DIR/summary.md (counts and every disagreement), and prints the summary.

    mesa/piglit-etnaviv.py --mesa /work/mesa-build --gpu GC2000 --compiler mesa \
        --out /tmp/piglit-gc2000 [--jobs 2] [--timeout 120] [--baseline DIR] TEST_OR_DIR...

`--baseline DIR` names an earlier run (its results.csv), typically the same tests with the
other compiler: the summary then lists every test that succeeded there and not here, and the
reverse.

`python3 -m doctest mesa/piglit-etnaviv.py` checks the matching against Mesa's lists.

A TEST_OR_DIR is a .shader_test file or a directory searched for them. Names follow piglit's
(`spec@glsl-1.10@execution@...`): the path after `tests/` or `generated_tests/`, or for the
shared corpus's `piglit__a__b.shader_test` files, `spec@a@b`.
"""

import argparse
import concurrent.futures
import csv
import os
import re
import subprocess
import sys
import time

PIGLIT = "/usr/lib/x86_64-linux-gnu/piglit"
# Mesa's CI ran piglit on a real GC2000 only (its GC7000 job runs dEQP, so the gc7000 lists
# say nothing about piglit); the other cores' runs have no hardware oracle.
CI_NAME = {"GC2000": "gc2000", "GC3000": None, "GC7000L": None}


def piglit_name(path):
    path = os.path.abspath(path)
    base = os.path.basename(path)
    if base.startswith("piglit__"):
        return "spec@" + base[len("piglit__"):-len(".shader_test")].replace("__", "@")
    for root in ("/generated_tests/", "/tests/"):
        if root in path:
            rel = path.split(root, 1)[1]
            return rel[: -len(".shader_test")].replace("/", "@")
    return base[: -len(".shader_test")]


def collect(inputs):
    """The test files, one per piglit name (the shared corpus repeats some of Debian's tests
    under its own file names; the first path in sorted order is kept)."""
    files = []
    for i in inputs:
        if os.path.isdir(i):
            for d, _, names in os.walk(i):
                files += [os.path.join(d, n) for n in names if n.endswith(".shader_test")]
        else:
            files.append(i)
    by_name = {}
    for f in sorted(set(files)):
        by_name.setdefault(piglit_name(f), f)
    return sorted(by_name.values())


def load_expectations(mesa_src, gpu):
    """(fails: name -> status, flakes: set, skips: [regex]) of Mesa's CI for this GPU."""
    ci = CI_NAME.get(gpu)
    fails, flakes, skips = {}, set(), []
    if not ci:
        return None
    d = os.path.join(mesa_src, "src/etnaviv/ci")

    def lines(name):
        p = os.path.join(d, f"etnaviv-{ci}-{name}.txt")
        if not os.path.exists(p):
            return []
        with open(p) as f:
            return [l.strip() for l in f if l.strip() and not l.startswith("#")]

    for l in lines("fails"):
        if "," in l:
            name, status = l.rsplit(",", 1)
            fails[name] = status
    # Mesa's runner takes the flakes and skips lists as regular expressions.
    flakes = [re.compile(l) for l in lines("flakes")]
    skips = [re.compile(l) for l in lines("skips")]
    return fails, flakes, skips


def environment(mesa, gpu, compiler, report):
    prefix = os.path.join(mesa, "prefix")
    libdir = os.path.join(prefix, "lib", "x86_64-linux-gnu")
    shim = os.path.join(libdir, "libetnaviv_gpucc_drm_shim.so")
    if not os.path.exists(shim):
        sys.exit(f"{shim} is missing: build Mesa with mesa/build.sh (gpucc enabled, drm-shim tools)")
    env = dict(os.environ)
    env.update(
        LD_PRELOAD=shim,
        LD_LIBRARY_PATH=libdir,
        LIBGL_DRIVERS_PATH=os.path.join(libdir, "dri"),
        __EGL_VENDOR_LIBRARY_FILENAMES=os.path.join(prefix, "share/glvnd/egl_vendor.d/50_mesa.json"),
        MESA_SHADER_CACHE_DISABLE="true",
        MESA_LOADER_DRIVER_OVERRIDE="etnaviv",
        ETNA_SHIM_GPU=gpu,
        EGL_PLATFORM="surfaceless",
        PIGLIT_PLATFORM="surfaceless_egl",
        GPUCC_MESA="off" if compiler == "mesa" else "on",
        ETNA_SHIM_REPORT=report,
    )
    return env


def run_one(args, env, path, report_dir):
    name = piglit_name(path)
    report = os.path.join(report_dir, name + ".report")
    env = dict(env, ETNA_SHIM_REPORT=report)
    if os.path.exists(report):
        os.remove(report)
    start = time.time()
    try:
        p = subprocess.run(
            [os.path.join(PIGLIT, "bin", "shader_runner"), path, "-auto", "-fbo"],
            env=env, capture_output=True, text=True, timeout=args.timeout,
        )
        out = p.stdout + p.stderr
        m = re.search(r'PIGLIT: \{"result": "(\w+)"', out)
        result = m.group(1) if m else ("crash" if p.returncode else "no result")
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        result = "timeout"
    seconds = time.time() - start
    with open(os.path.join(report_dir, name + ".log"), "w") as f:
        f.write(out)
    # What the GPU model met and did not interpret, as the shim wrote it at exit.
    unmodelled = []
    if os.path.exists(report):
        with open(report) as f:
            for l in f:
                if l.startswith(("error:", "not modelled:", "command not modelled:")):
                    unmodelled.append(l.strip())
    return name, result, seconds, unmodelled


def hardware(name, expectations):
    """What Mesa's CI recorded for the test `name` on the hardware.

    piglit lower-cases every test name (framework/profile.py, TestDict.__setitem__), so Mesa's
    expectation files list e.g. `...@glsl-fs-shadow2d-07` for the file glsl-fs-shadow2D-07;
    the name made from a path is lower-cased before it is looked up.

    >>> e = ({"spec@a@gl_frontcolor-flat,Fail".rsplit(",")[0]: "Fail"}, set(), [])
    >>> hardware("spec@a@gl_FrontColor-flat", e)
    'fail'
    >>> hardware("spec@a@gl_FrontColor-smooth", e)
    'pass'
    >>> hardware("spec@a@GL_FRONTCOLOR-FLAT", ({}, [re.compile("spec@a@gl_frontcolor-flat")], []))
    'flake'
    >>> hardware("spec@a@Shadow2D-07", ({}, set(), [re.compile("shadow2d")]))
    'skip'
    """
    if expectations is None:
        return "unknown"
    fails, flakes, skips = expectations
    name = name.lower()
    if any(r.search(name) for r in skips):
        return "skip"
    if any(r.search(name) for r in flakes):
        return "flake"
    if name in fails:
        return "fail"
    return "pass"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mesa", required=True, help="Mesa build directory of mesa/build.sh")
    ap.add_argument("--gpu", required=True, choices=sorted(CI_NAME))
    ap.add_argument("--compiler", choices=["mesa", "gpucc"], default="mesa")
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=180)
    ap.add_argument("--baseline", help="an earlier run's output directory to compare with")
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()

    files = collect(args.inputs)
    os.makedirs(args.out, exist_ok=True)
    logs = os.path.join(args.out, "logs")
    os.makedirs(logs, exist_ok=True)
    mesa_src = os.path.join(args.mesa, "src")
    expectations = load_expectations(mesa_src, args.gpu)
    env = environment(args.mesa, args.gpu, args.compiler, "")

    rows = []
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, result, seconds, unmodelled in pool.map(lambda p: run_one(args, env, p, logs), files):
            rows.append((name, result, hardware(name, expectations), seconds, unmodelled))
    elapsed = time.time() - start

    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["test", "simulated", "hardware", "seconds", "unmodelled"])
        for name, result, hw, seconds, un in rows:
            w.writerow([name, result, hw, f"{seconds:.1f}", " | ".join(un)])

    def simulated_pass(r):
        return r in ("pass", "warn", "skip")

    compared = [r for r in rows if r[2] in ("pass", "fail")]
    agree = [r for r in compared if simulated_pass(r[1]) == (r[2] == "pass")]
    lines = [
        f"# piglit on the simulated {args.gpu}, {args.compiler}'s compiler",
        "",
        f"{len(rows)} tests in {elapsed:.0f} s ({args.jobs} jobs).",
        "",
        "| simulated | count |",
        "|---|---|",
    ]
    for res in sorted({r[1] for r in rows}):
        lines.append(f"| {res} | {sum(1 for r in rows if r[1] == res)} |")
    if expectations is not None:
        lines += [
            "",
            f"Against Mesa CI's results on a real {args.gpu}: {len(compared)} tests have a hardware "
            f"result (skipped {sum(1 for r in rows if r[2] == 'skip')}, flaky "
            f"{sum(1 for r in rows if r[2] == 'flake')}); the simulation agrees on "
            f"{len(agree)} ({100.0 * len(agree) / max(1, len(compared)):.1f}%).",
            "",
            "| disagreement | test | what the model reported |",
            "|---|---|---|",
        ]
        for name, result, hw, _, un in rows:
            if hw in ("pass", "fail") and simulated_pass(result) != (hw == "pass"):
                lines.append(f"| simulated {result}, hardware {hw} | {name} | {'; '.join(un[:3])} |")
    if args.baseline:
        with open(os.path.join(args.baseline, "results.csv")) as f:
            base = {row["test"]: row["simulated"] for row in csv.DictReader(f)}
        now = {r[0]: r[1] for r in rows}
        lost = sorted(t for t in now if t in base and simulated_pass(base[t]) and not simulated_pass(now[t]))
        gained = sorted(t for t in now if t in base and not simulated_pass(base[t]) and simulated_pass(now[t]))
        lines += [
            "",
            f"Against the baseline run {args.baseline}: {len(lost)} tests succeeded there and "
            f"not here, {len(gained)} the reverse.",
            "",
            "| change | test | here | there |",
            "|---|---|---|---|",
        ]
        lines += [f"| lost | {t} | {now[t]} | {base[t]} |" for t in lost]
        lines += [f"| gained | {t} | {now[t]} | {base[t]} |" for t in gained]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
