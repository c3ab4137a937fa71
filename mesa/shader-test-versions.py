#!/usr/bin/env python3
"""Copies .shader_test files, giving each shader section the #version line piglit's
shader_runner would give it.

shader_runner compiles a section whose text does not begin with `#version ` with
`#version N` (`#version N es` for GLSL ES) prepended, N being the test's `GLSL >= X.YZ`
(`GLSL ES >= X.YZ`) requirement. shader-db's `run` compiles the text as it is, so a piglit
test written for shader_runner without its own #version (most generated tests, many
GLSL 1.30+ tests) is compiled as GLSL 1.10 by `run`, fails to compile, and leaves no program.

Usage: shader-test-versions.py OUT_DIR FILE...  (writes OUT_DIR/<basename> for each FILE)
"""

import os
import re
import sys

REQUIREMENT = re.compile(r"^GLSL (ES )?>= (\d+)\.(\d+)", re.M)
SECTION = re.compile(r"^\[[^\]]*shader\]\s*$")


def with_versions(text):
    m = REQUIREMENT.search(text)
    if not m:
        return text
    es = m.group(1) is not None
    number = int(m.group(2)) * 100 + int(m.group(3))
    line = f"#version {number}{' es' if es else ''}\n"
    out = []
    lines = text.splitlines(keepends=True)
    for i, l in enumerate(lines):
        out.append(l)
        if SECTION.match(l):
            following = lines[i + 1] if i + 1 < len(lines) else ""
            if not following.startswith("#version "):
                out.append(line)
    return "".join(out)


def main():
    out_dir, files = sys.argv[1], sys.argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    for f in files:
        with open(f, errors="replace") as src:
            text = src.read()
        with open(os.path.join(out_dir, os.path.basename(f)), "w") as dst:
            dst.write(with_versions(text))


if __name__ == "__main__":
    main()
