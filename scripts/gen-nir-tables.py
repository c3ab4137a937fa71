#!/usr/bin/env python3
"""Regenerates gpucc's NIR opcode tables from Mesa 23.3.6's definitions.

Writes src/nir/opcodes/alu_table.rs (the AluOp enum and its signature rows, from Mesa's
src/compiler/nir/nir_opcodes.py), src/nir/opcodes/intrinsic_table.rs (the Intrinsic enum and
the intrinsic rows) and src/nir/opcodes/index_kind.rs (the IndexKind enum and the index
names, which the rows' type names, so they sit below it), from nir_intrinsics.py.

Mesa's two files are Python modules that build their tables by calling functions; this script
runs them in a namespace of their own (they import only the standard library) and walks the
resulting `opcodes` and `INTR_INDICES` / `INTR_OPCODES`. Only the facts are taken from Mesa
(names, sizes, types, properties, indices, flags); the Rust is written here.

Usage:
  scripts/gen-nir-tables.py [--check] [--mesa-tarball FILE | --mesa-src DIR]

By default the definitions are read straight out of ../shared/mesa/mesa-23.3.6.tar.xz (relative
to the repository; $GPUCC_SHARED/mesa/... when that is set), without unpacking it. --mesa-src
takes an unpacked Mesa tree instead (the directory holding src/compiler/nir). --check writes
nothing: it exits 1 with a summary of the differences when a checked-in table is not what this
script produces, 0 when both are. A missing Mesa source exits 2. The output is rustfmt-clean,
so `cargo fmt --check` agrees with it.
"""

import argparse
import difflib
import os
import sys
import tarfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MESA_VERSION = "23.3.6"
# The shared data folder beside the clone, or $GPUCC_SHARED, as the tests find it.
SHARED = os.environ.get("GPUCC_SHARED") or os.path.join(REPO, "..", "shared")
DEFAULT_TARBALL = os.path.join(SHARED, "mesa", "mesa-%s.tar.xz" % MESA_VERSION)
NIR_DIR = "src/compiler/nir"
ALU_OUT = os.path.join(REPO, "src", "nir", "opcodes", "alu_table.rs")
INTRINSIC_OUT = os.path.join(REPO, "src", "nir", "opcodes", "intrinsic_table.rs")
INDEX_KIND_OUT = os.path.join(REPO, "src", "nir", "opcodes", "index_kind.rs")

# rustfmt's defaults (the repository has no rustfmt.toml): the line width, and the widest
# array literal kept on one line (use_small_heuristics = "Default": 60% of max_width, measured
# over the items and their separators, without the brackets).
MAX_WIDTH = 100
ARRAY_WIDTH = 60
# rustfmt lays "simple" items (literals, `-1`) out several to a line when an array must break,
# if none is wider than this (short_array_element_width_threshold); other items one per line.
SHORT_ITEM_WIDTH = 10


# --- reading Mesa's definitions -------------------------------------------------------------


def fail(msg):
    """A missing or broken Mesa source: exit 2, apart from --check's 1 for a stale table."""
    print("gen-nir-tables: " + msg, file=sys.stderr)
    sys.exit(2)


def read_mesa_sources(args):
    """Returns {file name: source text} for the two definition files, and where they came from."""
    names = ["nir_opcodes.py", "nir_intrinsics.py"]
    out = {}
    if args.mesa_src:
        d = os.path.join(args.mesa_src, NIR_DIR)
        for n in names:
            try:
                with open(os.path.join(d, n), encoding="utf-8") as f:
                    out[n] = f.read()
            except OSError as e:
                fail("cannot read Mesa's %s: %s" % (n, e))
        return out, args.mesa_src
    path = os.path.normpath(args.mesa_tarball)
    if not os.path.isfile(path):
        fail("no Mesa tarball at %s (give --mesa-tarball FILE or --mesa-src DIR)" % path)
    prefix = "mesa-%s/%s/" % (MESA_VERSION, NIR_DIR)
    wanted = {prefix + n: n for n in names}
    # Read the archive as a stream and stop once both files are out: no unpacking to disk.
    with tarfile.open(path, "r|*") as tar:
        for member in tar:
            if member.name in wanted:
                out[wanted[member.name]] = tar.extractfile(member).read().decode("utf-8")
                if len(out) == len(names):
                    break
    missing = sorted(set(names) - set(out))
    if missing:
        fail("%s lacks %s" % (path, ", ".join(prefix + n for n in missing)))
    return out, path


def run_module(source, filename):
    """Executes one of Mesa's definition modules and returns its global namespace."""
    ns = {"__name__": os.path.splitext(filename)[0], "__file__": filename}
    exec(compile(source, filename, "exec"), ns)
    return ns


# --- Rust formatting --------------------------------------------------------------------------


def camel(name):
    """`load_ubo_uniform_block_intel` -> `LoadUboUniformBlockIntel`, as mod.rs's test spells it."""
    return "".join(w[:1].upper() + w[1:] for w in name.split("_"))


def is_simple(item):
    """rustfmt's is_simple_expr for the items written here: a literal or a negated literal."""
    s = item[1:] if item.startswith("-") else item
    return s.isdigit()


def field_array(indent, field, items, prefix="&"):
    """`field: &[a, b],` at `indent` spaces, broken as rustfmt breaks an array that is too wide."""
    one = "%s[%s]" % (prefix, ", ".join(items))
    line = "%s%s: %s," % (" " * indent, field, one)
    if len(one) - len(prefix) - 2 <= ARRAY_WIDTH and len(line) <= MAX_WIDTH:
        return [line]
    inner = " " * (indent + 4)
    out = ["%s%s: %s[" % (" " * indent, field, prefix)]
    if all(is_simple(i) and len(i) <= SHORT_ITEM_WIDTH for i in items):
        cur = ""
        for i in items:
            piece = i + ","
            if cur and len(inner) + len(cur) + 1 + len(piece) > MAX_WIDTH:
                out.append(inner + cur)
                cur = ""
            cur = piece if not cur else cur + " " + piece
        if cur:
            out.append(inner + cur)
    else:
        out.extend("%s%s," % (inner, i) for i in items)
    out.append("%s]," % (" " * indent))
    return out


def flags_expr(names):
    return " | ".join(names) if names else "0"


# --- the ALU table ----------------------------------------------------------------------------

# nir_alu_type spellings of nir_opcodes.py -> gpucc's AluType constants (`T::F0` is "float",
# the instruction's bit size).
ALU_TYPE_BASE = {"float": "F", "int": "I", "uint": "U", "bool": "B"}

# Mesa's algebraic properties gpucc keeps, in the order rows spell them. The fourth, Mesa's
# "derivative" (fddx and friends), has no flag in gpucc: its passes test those opcodes by name.
ALU_PROPS = [("2src_commutative", "COMMUTATIVE"), ("associative", "ASSOCIATIVE"),
             ("selection", "SELECTION")]
ALU_PROPS_IGNORED = {"derivative"}


def alu_type(t):
    for base in ("float", "uint", "int", "bool"):
        if t.startswith(base):
            bits = t[len(base):] or "0"
            assert bits.isdigit(), t
            return "T::%s%s" % (ALU_TYPE_BASE[base], bits)
    raise ValueError("unknown NIR type %r" % t)


def alu_props(s):
    words = s.split()
    known = {m for m, _ in ALU_PROPS} | ALU_PROPS_IGNORED
    unknown = [w for w in words if w not in known]
    assert not unknown, "algebraic properties gpucc does not know: %s" % unknown
    return flags_expr([rust for mesa, rust in ALU_PROPS if mesa in words])


def gen_alu(ns):
    ops = [ns["opcodes"][n] for n in sorted(ns["opcodes"])]
    n = len(ops)
    out = [
        "//! The ALU opcode table: one row per opcode of Mesa 23.3's nir_opcodes.py.",
        "//!",
        "//! Generated by scripts/gen-nir-tables.py from Mesa %s's opcode definitions (names,"
        " sizes," % MESA_VERSION,
        "//! types and algebraic properties are facts of the NIR format): do not edit by hand,"
        " edit",
        "//! the script and rerun it. Sorted by name so lookups are a binary search.",
        "",
        "use super::AluType as T;",
        "use super::{AluOpInfo, ASSOCIATIVE, COMMUTATIVE, SELECTION};",
        "",
        "/// Every ALU opcode, in name order (the discriminant indexes [`ALU_OPS`]).",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]",
        "#[allow(non_camel_case_types)]",
        "pub enum AluOp {",
    ]
    out += ["    %s," % o.name for o in ops]
    out += ["}", "", "pub(super) const ALL: [AluOp; %d] = [" % n]
    out += ["    AluOp::%s," % o.name for o in ops]
    out += [
        "];",
        "",
        "/// Signature and properties of every opcode, indexed by `AluOp as usize`.",
        "pub static ALU_OPS: [AluOpInfo; %d] = [" % n,
    ]
    for o in ops:
        out.append("    AluOpInfo {")
        out.append('        name: "%s",' % o.name)
        out.append("        output_size: %d," % o.output_size)
        out.append("        output_type: %s," % alu_type(o.output_type))
        out += field_array(8, "input_sizes", [str(s) for s in o.input_sizes])
        out += field_array(8, "input_types", [alu_type(t) for t in o.input_types])
        out.append("        is_conversion: %s," % ("true" if o.is_conversion else "false"))
        out.append("        props: %s," % alu_props(o.algebraic_properties))
        out.append("    },")
    out.append("];")
    return "\n".join(out) + "\n"


# --- the intrinsic table ----------------------------------------------------------------------

INTRINSIC_FLAGS = [("NIR_INTRINSIC_CAN_ELIMINATE", "CAN_ELIMINATE"),
                   ("NIR_INTRINSIC_CAN_REORDER", "CAN_REORDER")]


def gen_intrinsics(ns):
    indices = ns["INTR_INDICES"]
    intrs = [ns["INTR_OPCODES"][n] for n in sorted(ns["INTR_OPCODES"])]
    n = len(intrs)
    out = [
        "//! The intrinsic table: one row per intrinsic of Mesa 23.3's nir_intrinsics.py.",
        "//!",
        "//! Generated by scripts/gen-nir-tables.py from Mesa %s's intrinsic definitions (source"
        " and" % MESA_VERSION,
        "//! destination component counts, constant index names, flags are facts of the NIR"
        " format):",
        "//! do not edit by hand, edit the script and rerun it. Sorted by name for binary search.",
        "",
        "use super::{IndexKind as K, IntrinsicInfo, CAN_ELIMINATE, CAN_REORDER};",
        "",
        "/// Every intrinsic, in name order: the discriminant indexes [`INTRINSICS`] (the variant"
        " is the",
        "/// CamelCase spelling of the row's name, e.g. `load_ubo_uniform_block_intel` is",
        "/// `LoadUboUniformBlockIntel`), so backends match on variants and a misspelled arm"
        " does not",
        "/// compile.",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]",
        "#[repr(u16)]",
        "pub enum Intrinsic {",
    ]
    out += ["    %s," % camel(i.name) for i in intrs]
    out += [
        "}",
        "",
        "/// Every [`Intrinsic`], indexed by discriminant (the inverse of `as usize`).",
        "pub(super) const ALL: [Intrinsic; %d] = [" % n,
    ]
    out += ["    Intrinsic::%s," % camel(i.name) for i in intrs]
    out += [
        "];",
        "",
        "/// Every intrinsic, in name order.",
        "pub static INTRINSICS: [IntrinsicInfo; %d] = [" % n,
    ]
    for i in intrs:
        unknown = [f for f in i.flags if f not in dict(INTRINSIC_FLAGS)]
        assert not unknown, "intrinsic flags gpucc does not know: %s" % unknown
        out.append("    IntrinsicInfo {")
        out.append('        name: "%s",' % i.name)
        out += field_array(8, "src_components", [str(c) for c in i.src_components])
        out.append("        dest_components: %d," % i.dest_components)
        out += field_array(8, "indices", ["K::" + camel(x.name) for x in i.indices])
        flags = [rust for mesa, rust in INTRINSIC_FLAGS if mesa in i.flags]
        out.append("        flags: %s," % flags_expr(flags))
        out.append("        sysval: %s," % ("true" if i.sysval else "false"))
        out += field_array(8, "bit_sizes", [str(b) for b in i.bit_sizes])
        out.append("        bit_size_src: %d," % i.bit_size_src)
        out.append("    },")
    out.append("];")
    return "\n".join(out) + "\n"


def gen_index_kinds(ns):
    indices = ns["INTR_INDICES"]
    out = [
        "//! The constant-index kinds of Mesa 23.3's nir_intrinsics.py, which the intrinsic table's",
        "//! rows name ([`super::IntrinsicInfo::indices`]).",
        "//!",
        "//! Generated by scripts/gen-nir-tables.py from Mesa %s's intrinsic definitions: do not"
        % MESA_VERSION,
        "//! edit by hand, edit the script and rerun it.",
        "",
        "/// Every constant-index kind an intrinsic can carry, in Mesa's order.",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]",
        "pub enum IndexKind {",
    ]
    out += ["    %s," % camel(x.name) for x in indices]
    out += [
        "}",
        "",
        "/// Mesa's name of each index kind (as `nir_intrinsic_index_names`), indexed by"
        " `IndexKind as usize`.",
        "pub const INDEX_NAMES: [&str; %d] = [" % len(indices),
    ]
    out += ['    "%s",' % x.name for x in indices]
    out.append("];")
    return "\n".join(out) + "\n"


# --- main -------------------------------------------------------------------------------------


def diff_summary(path, old, new, limit=40):
    rel = os.path.relpath(path, REPO)
    lines = list(difflib.unified_diff(old.splitlines(), new.splitlines(), "a/" + rel, "b/" + rel,
                                      n=2, lineterm=""))
    added = sum(1 for l in lines if l.startswith("+") and not l.startswith("+++"))
    removed = sum(1 for l in lines if l.startswith("-") and not l.startswith("---"))
    print("%s differs from the generated table (- checked in, + generated): %d lines to add,"
          " %d to remove" % (rel, added, removed))
    for l in lines[:limit]:
        print("  " + l)
    if len(lines) > limit:
        print("  ... (%d more diff lines; run scripts/gen-nir-tables.py to rewrite it)"
              % (len(lines) - limit))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true",
                   help="compare with the checked-in tables instead of writing them")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--mesa-tarball", default=DEFAULT_TARBALL,
                     help="Mesa %s release tarball (default: %s)"
                     % (MESA_VERSION, os.path.normpath(DEFAULT_TARBALL)))
    src.add_argument("--mesa-src", metavar="DIR", help="an unpacked Mesa %s tree" % MESA_VERSION)
    args = p.parse_args()

    sources, origin = read_mesa_sources(args)
    intrinsics = run_module(sources["nir_intrinsics.py"], "nir_intrinsics.py")
    outputs = [
        (ALU_OUT, gen_alu(run_module(sources["nir_opcodes.py"], "nir_opcodes.py"))),
        (INTRINSIC_OUT, gen_intrinsics(intrinsics)),
        (INDEX_KIND_OUT, gen_index_kinds(intrinsics)),
    ]
    stale = 0
    for path, text in outputs:
        try:
            with open(path, encoding="utf-8") as f:
                old = f.read()
        except FileNotFoundError:
            old = ""
        if old == text:
            if args.check:
                print("%s: up to date with %s" % (os.path.relpath(path, REPO), origin))
            continue
        stale += 1
        if args.check:
            diff_summary(path, old, text)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print("wrote %s" % os.path.relpath(path, REPO))
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
