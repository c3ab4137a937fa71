#!/usr/bin/env python3
"""Summarises a shader-db run through a Mesa driver built with gpucc (mesa/shader-db.sh).

Reads OUT/run.log (shader-db's `run` output: one `TEST - MESSAGE` line per debug message the
driver sent) and OUT/nir (the shaders the driver handed to gpucc). Prints the programs, how
many gpucc compiled, the fallbacks by reason, the compare-mode differences by class, the
statistics totals, and checks each program gpucc compiled: `gpucc compile --stats` over the
dumped hand-over NIR must print the statistics line the driver printed. Exit status 1 when a
program's line differs or a hand-over cannot be paired with its statistics.
"""

import argparse
import collections
import csv
import os
import re
import subprocess
import sys

STATS = re.compile(r"^(\S+) - (\w+) shader: (\d+) instructions, (\d+) temps, "
                   r"(\d+) immediates, (\d+) loops$")
HANDOVER = re.compile(r"^(\S+) - (\w+) shader: gpucc hand-over (\S+) \((\w+)\)$")
FALLBACK = re.compile(r"^(\S+) - (\w+) shader: gpucc fell back to \w+: (.*)$")
DIFFERS = re.compile(r"^(\S+) - (\w+) shader: gpucc compare: differs; (.*)$")


def reason_class(reason):
    """A fallback reason without its numbers and names, so alike reasons count together."""
    reason = re.sub(r"`[^`]*`", "`…`", reason)
    reason = re.sub(r"\b\d+\b", "N", reason)
    return reason[:140]


def diff_class(diff):
    diff = re.sub(r"-?\b\d+\b", "N", diff)
    return diff


# brw's shader-db line (fs_generator / vec4_generator) and gpucc's command-line statistics.
INTEL_STATS = re.compile(r"^(\S+) - (FS|VS|CS) (SIMD\d+|vec4) shader: (\d+) inst, (\d+) loops, "
                         r"(\d+) cycles, (\d+):(\d+) spills:fills, (\d+) sends")
INTEL_HANDOVER = re.compile(r"^(\S+) - (FS|VS|CS) shader: gpucc hand-over (\S+)$")
CLI_STATS = re.compile(r"^(?:VS )?(SIMD\d+|vec4) shader: (\d+) instructions\. (\d+) loops\. (\d+) cycles\. "
                       r"(\d+):(\d+) spills:fills, (\d+) sends")


def print_classes(fallbacks, differences):
    """The fallback reasons and compare-mode differences, each class with its count."""
    for reason, n in fallbacks.most_common():
        print(f"  fallback x{n}: {reason}")
    if differences:
        print(f"compare mode: {sum(differences.values())} differences")
        for d, n in differences.most_common():
            print(f"  x{n} {d}")


def intel(args, lines):
    """Pairs each hand-over with the statistics lines that follow it for the same test: gpucc's
    (logged during its compile) or, after a fallback line, brw's."""
    nir_dir = os.path.join(args.out, "nir")
    programs = []  # dicts: test, stage, file, fallback, widths [(simd, stats tuple)]
    other_lines = 0
    fallbacks = collections.Counter()
    differences = collections.Counter()
    current = None
    for line in lines:
        m = INTEL_HANDOVER.match(line)
        if m:
            current = {"test": m.group(1), "stage": m.group(2), "file": m.group(3),
                       "fallback": None, "widths": []}
            programs.append(current)
            continue
        m = FALLBACK.match(line)
        if m:
            fallbacks[reason_class(m.group(3))] += 1
            if current and current["test"] == m.group(1):
                current["fallback"] = m.group(3)
            continue
        m = DIFFERS.match(line)
        if m:
            for d in m.group(3).split("; "):
                differences[f"{m.group(2)}: {diff_class(d)}"] += 1
            continue
        m = INTEL_STATS.match(line)
        if m:
            stats = tuple(int(m.group(i)) for i in range(4, 10))
            if (current and current["test"] == m.group(1) and current["stage"] == m.group(2)
                    and m.group(3) not in [w[0] for w in current["widths"]]):
                current["widths"].append((m.group(3), stats))
            else:
                other_lines += 1
            continue
    by_gpucc = [p for p in programs if not p["fallback"]]
    print(f"programs handed to gpucc: {len(programs)}; compiled by gpucc: {len(by_gpucc)}; "
          f"fell back: {len(programs) - len(by_gpucc)}; statistics lines of programs not "
          f"handed over (other stages, brw's own in compare mode): {other_lines}")
    print_classes(fallbacks, differences)
    if not by_gpucc:
        return 0
    if args.compare:
        # brw's own lines follow gpucc's for every program: the pairing cannot tell them apart.
        print("per-program check: not made in compare mode (run without --compare)")
        return 0
    with open(os.path.join(nir_dir, "target.txt")) as f:
        target = f.read().strip()
    names = ["inst", "loops", "cycles", "spills", "fills", "sends"]
    driver = collections.Counter()
    ours = collections.Counter()
    mismatches = 0
    for p in by_gpucc:
        path = os.path.join(nir_dir, p["file"])
        # NAME.key: the key fields (`--key` arguments) and the binding model with the UBO
        # ranges the driver gave gpucc (`binding=mesa:ranges=...`).
        keys = []
        binding = "mesa"
        if os.path.exists(path + ".key"):
            with open(path + ".key") as f:
                for k in f.read().split():
                    if k.startswith("binding="):
                        binding = k[len("binding="):]
                    else:
                        keys += ["--key", k]
        r = subprocess.run([args.gpucc, "compile", "--target", target, "--binding", binding,
                            path, "--stats"] + keys, capture_output=True, text=True)
        cli = []
        for line in r.stdout.splitlines():
            m = CLI_STATS.match(line)
            if m:
                cli.append((m.group(1), tuple(int(m.group(i)) for i in range(2, 8))))
        for w, st in p["widths"]:
            for n, v in zip(names, st):
                driver[(w, n)] += v
        for w, st in cli:
            for n, v in zip(names, st):
                ours[(w, n)] += v
        if r.returncode != 0 or cli != p["widths"]:
            mismatches += 1
            print(f"  {p['file']} ({p['test']}): driver {p['widths']}, gpucc compile {cli} "
                  f"{r.stderr.strip()[:160]}")
    for label, c in (("gpucc's programs in the driver", driver),
                     ("`gpucc compile --stats` over their hand-over NIR", ours)):
        widths = sorted({w for w, _ in c}, key=lambda w: (len(w), w))
        parts = [f"{w}: " + ", ".join(f"{c[(w, n)]} {n}" for n in names) for w in widths]
        print(f"{label}: " + "; ".join(parts))
    print(f"per-program check: {len(by_gpucc) - mismatches} equal, {mismatches} differ")
    report_differs = report_totals(args, target, [p["file"] for p in by_gpucc], driver)
    return 1 if mismatches or report_differs else 0


def link_and_report(args, target, files, extra):
    """Links the given hand-overs (with their NAME.key) into OUT/compiled and runs `gpucc
    report` over them; returns the CSV's path."""
    nir_dir = os.path.join(args.out, "nir")
    chosen = os.path.join(args.out, "compiled")
    if os.path.isdir(chosen):
        for f in os.listdir(chosen):
            os.unlink(os.path.join(chosen, f))
    os.makedirs(chosen, exist_ok=True)
    for f in set(files):
        for suffix in ("", ".key"):
            src = os.path.join(nir_dir, f + suffix)
            if os.path.exists(src):
                os.symlink(src, os.path.join(chosen, f + suffix))
    csv_path = os.path.join(args.out, "report.csv")
    subprocess.run([args.gpucc, "report", "--target", target] + extra +
                   [chosen, "--csv", csv_path], capture_output=True, text=True)
    return csv_path


def report_totals(args, target, files, driver):
    """`gpucc report` over the hand-overs of the programs gpucc compiled (each with its
    NAME.key): its totals per width must equal the driver's. Returns True when they differ."""
    csv_path = link_and_report(args, target, files, ["--binding", "mesa"])
    names = ["inst", "cycles", "spills", "fills", "sends"]
    ours = collections.Counter()
    with open(csv_path) as f:
        for row in list(csv.DictReader(f)):
            w = "vec4" if row["simd"] == "vec4" else f"SIMD{row['simd']}"
            for n, col in zip(names, ["instructions", "cycles", "spills", "fills", "sends"]):
                ours[(w, n)] += int(row[col] or 0)
    widths = sorted({w for w, _ in driver}, key=lambda w: (len(w), w))
    differs = any(ours[(w, n)] != driver[(w, n)] for w in widths for n in names)
    parts = [f"{w}: " + ", ".join(f"{ours[(w, n)]} {n}" for n in names) for w in widths]
    print("`gpucc report` over the same hand-overs: " + "; ".join(parts) +
          (" (differs from the driver's)" if differs else " (equal to the driver's)"))
    return differs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpucc", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--family", choices=["etnaviv", "intel"], default="etnaviv")
    ap.add_argument("--compare", action="store_true")
    args = ap.parse_args()
    nir_dir = os.path.join(args.out, "nir")
    with open(os.path.join(args.out, "run.log"), errors="replace") as f:
        lines = f.read().splitlines()
    if args.family == "intel":
        return intel(args, lines)

    last_stats = {}
    programs = []  # (test, stage, stats tuple)
    handovers = []  # (test, stage, file, backend, stats)
    fallbacks = collections.Counter()
    differences = collections.Counter()
    unpaired = 0
    for line in lines:
        m = STATS.match(line)
        if m:
            key = (m.group(1), m.group(2))
            stats = tuple(int(m.group(i)) for i in range(3, 7))
            programs.append((key, stats))
            last_stats[key] = stats
            continue
        m = HANDOVER.match(line)
        if m:
            key = (m.group(1), m.group(2))
            stats = last_stats.pop(key, None)
            if stats is None:
                unpaired += 1
            handovers.append((key, m.group(3), m.group(4), stats))
            continue
        m = FALLBACK.match(line)
        if m:
            fallbacks[reason_class(m.group(3))] += 1
            continue
        m = DIFFERS.match(line)
        if m:
            for d in m.group(3).split("; "):
                differences[f"{m.group(2)}: {diff_class(d)}"] += 1

    by_gpucc = [h for h in handovers if h[2] == "gpucc"]
    fell_back = [h for h in handovers if h[2] != "gpucc"]
    totals = [sum(p[1][i] for p in programs) for i in range(4)]
    print(f"programs: {len(programs)} (statistics lines); handed to gpucc: {len(handovers)}; "
          f"compiled by gpucc: {len(by_gpucc)}; fell back: {len(fell_back)}")
    print(f"totals: {totals[0]} instructions, {totals[1]} temps, {totals[2]} immediates, "
          f"{totals[3]} loops")
    print_classes(fallbacks, differences)

    target_file = os.path.join(nir_dir, "target.txt")
    if not by_gpucc:
        return 0 if not unpaired else 1
    with open(target_file) as f:
        target = f.read().strip()
    mismatches = 0
    gpucc_totals = [0, 0, 0, 0]
    for (test, stage), name, _, stats in by_gpucc:
        path = os.path.join(nir_dir, name)
        r = subprocess.run([args.gpucc, "compile", "--target", target, path, "--stats"],
                           capture_output=True, text=True)
        m = STATS.match(f"x - {r.stdout.strip()}")
        if r.returncode != 0 or not m:
            print(f"  {name} ({test} {stage}): gpucc compile failed: {r.stderr.strip()[:200]}")
            mismatches += 1
            continue
        ours = tuple(int(m.group(i)) for i in range(3, 7))
        gpucc_totals = [a + b for a, b in zip(gpucc_totals, ours)]
        if stage != m.group(2) or stats != ours:
            print(f"  {name} ({test}): driver {stage} {stats}, gpucc compile {m.group(2)} {ours}")
            mismatches += 1
    driver_totals = [sum(h[3][i] for h in by_gpucc if h[3]) for i in range(4)]
    print(f"gpucc's programs in the driver: {driver_totals[0]} instructions, {driver_totals[1]} "
          f"temps, {driver_totals[2]} immediates, {driver_totals[3]} loops")
    print(f"`gpucc compile --stats` over their hand-over NIR: {gpucc_totals[0]} instructions, "
          f"{gpucc_totals[1]} temps, {gpucc_totals[2]} immediates, {gpucc_totals[3]} loops")
    print(f"per-program check: {len(by_gpucc) - mismatches} equal, {mismatches} differ, "
          f"{unpaired} hand-overs without a statistics line")
    # `gpucc report` over the same hand-overs: instructions and temps (its grfs column).
    csv_path = link_and_report(args, target, [name for _, name, _, _ in by_gpucc], [])
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    report = [sum(int(r["instructions"]) for r in rows), sum(int(r["grfs"]) for r in rows)]
    report_differs = report != driver_totals[:2] or len(rows) != len(by_gpucc)
    print(f"`gpucc report` over the same hand-overs: {len(rows)} programs, {report[0]} "
          f"instructions, {report[1]} temps"
          + (" (differs from the driver's)" if report_differs else " (equal to the driver's)"))
    return 1 if mismatches or unpaired or report_differs else 0


if __name__ == "__main__":
    sys.exit(main())
