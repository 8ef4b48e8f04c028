#!/usr/bin/env python3
"""Two cfuzz builds side by side on realworld.py's libraries: the ablation row of a search change.

For each library and seed, variant A and variant B run at the same time, each pinned to its own
core (the cores swap from one seed to the next), with the same seed, under the exclusive lock on
/tmp/cfuzz-cpu.lock. A paired run cancels most of what a machine's pace and the time of day do
to a library's figures: run one after the other, two runs of one build on libwebp were 3.5%
apart. Each run's final corpus is replayed through the library's coverage build, and branches
are counted as realworld.py counts them.

A variant is NAME=BUILD_DIR[:'FLAGS']: a cfuzz build directory (its `cfuzz` and its runtime, to
which the library's cfuzz objects are relinked) and more flags for `cfuzz run`. The objects are
compiled once, by realworld.py's build, so a change to how cfuzz-clang compiles (the
instrumentation flags) is not what this compares; the coordinator and the runtime are. Build
the libraries first with `realworld.py --build-only --libs ...`.

  python3 scripts/bench/ablation.py --libs harfbuzz,libpng --from-seed --secs 60 --seeds 1,2,3 \\
      --variant before=/tmp/before/build --variant after=build

The table goes to build/bench/ablation.md: per library the median branches of each variant over
the seeds, every seed's figures, and B/A. Sources and builds are realworld.py's (--dir).
"""
import argparse
import contextlib
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realworld as rw  # noqa: E402
from bench import fresh_dir, human, log  # noqa: E402

TABLE = rw.ROOT / "build" / "bench" / "ablation.md"


class Variant:
    def __init__(self, text):
        name, sep, rest = text.partition("=")
        if not sep or not name:
            raise argparse.ArgumentTypeError(f"--variant {text!r}: expected NAME=BUILD_DIR[:'FLAGS']")
        build, _, flags = rest.partition(":")
        self.name, self.build, self.flags = name, Path(build).resolve(), shlex.split(flags)
        if not (self.build / "bin" / "cfuzz").exists():
            raise argparse.ArgumentTypeError(f"--variant {text!r}: no cfuzz in {self.build}/bin")
        self.fuzzer = rw.Cfuzz(self.build, self.flags)

    def describe(self):
        flags = f" {' '.join(self.flags)}" if self.flags else ""
        return f"{self.name}: cfuzz {rw.cfuzz_commit(self.build)} from {self.build}{flags}"


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", required=True, help="comma-separated libraries, or tuning, held-out or all")
    ap.add_argument("--secs", type=int, default=60, help="seconds per run (default: %(default)s)")
    ap.add_argument("--seeds", default="1,2,3", help="comma-separated seeds (default: %(default)s)")
    ap.add_argument("--variant", type=Variant, action="append", required=True, metavar="NAME=BUILD_DIR[:'FLAGS']",
                    help="twice: variant A, then variant B")
    ap.add_argument("--from-seed", action="store_true", help="both start from the library's seed file")
    ap.add_argument("--dir", type=Path, default=Path(os.environ.get("CFUZZ_REALWORLD_DIR", "/var/tmp/cfuzz-realworld")),
                    help="realworld.py's sources, builds and runs (default: $CFUZZ_REALWORLD_DIR or %(default)s)")
    args = ap.parse_args(argv)
    if len(args.variant) != 2 or args.variant[0].name == args.variant[1].name:
        ap.error("give --variant twice, with two names")
    args.libs = rw.LIBRARY_SETS[args.libs] if args.libs in rw.LIBRARY_SETS else args.libs.split(",")
    unknown = [lib for lib in args.libs if lib not in rw.LIBRARIES]
    if unknown:
        ap.error(f"unknown libraries {unknown}; known: {', '.join(rw.LIBRARIES)}")
    if args.from_seed:
        args.libs = [lib for lib in args.libs if "seed" in rw.LIBRARIES[lib]]
    try:
        args.seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        ap.error(f"--seeds {args.seeds!r}: expected comma-separated numbers")
    return args


def relink(name, built_dir, variant, out):
    """The library's cfuzz binary, its objects linked to the variant's runtime."""
    record = built_dir / "cfuzz" / f"{name}.cmd"  # realworld.run_step's record of the link
    if not record.exists():
        sys.exit(f"ablation.py: {name} is not built in {built_dir.parent}: run "
                 f"`python3 scripts/bench/realworld.py --build-only --libs {name}` first")
    cmd = record.read_text().split("\n")
    cmd[0] = str(variant.build / "bin" / "cfuzz-clang++")
    cmd[cmd.index("-o") + 1] = str(out)
    runtime = [variant.build / "lib" / "libcfuzz_runtime.a", variant.build / "lib" / "libcfuzz_interceptors.a"]
    rw.run_step(out, cmd, runtime, built_dir)
    return out


def paired_run(variants, binaries, work_root, secs, seed, cpu_of, seed_file):
    """Both variants at once, each on its core (from `seed_file` if given); returns each
    one's run directory."""
    procs = []
    with rw.CpuLock(), contextlib.ExitStack() as logs:
        for v, binary in zip(variants, binaries):
            work = fresh_dir(work_root / f"{v.name}-{seed}")
            if seed_file is not None:
                v.fuzzer.add_seed(work, seed_file)
            cmd = ["taskset", "-c", cpu_of[v.name], *v.fuzzer.command(binary, work, secs, seed)]
            out = logs.enter_context(open(work / "stdout.txt", "wb"))
            err = logs.enter_context(open(work / "stderr.txt", "wb"))
            procs.append((work, subprocess.Popen([str(c) for c in cmd], cwd=work, stdin=subprocess.DEVNULL,
                                                 stdout=out, stderr=err)))
        for _, p in procs:
            p.wait()
    return [work for work, _ in procs]


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    a, b = args.variant
    started = time.monotonic()
    tag = f"{args.secs}s" + ("-from-seed" if args.from_seed else "")
    rows = []
    for name in args.libs:
        spec = rw.LIBRARIES[name]
        src = rw.source_dir(args.dir / "src", spec["package"])
        if src is None:
            sys.exit(f"ablation.py: no source of {name} in {args.dir / 'src'}: run "
                     f"`python3 scripts/bench/realworld.py --build-only --libs {name}` first")
        root = rw.lib_root(src, spec)
        coverage_build = args.dir / "build" / name / "coverage" / name
        out_dir = args.dir / "ablation" / "bin"
        out_dir.mkdir(parents=True, exist_ok=True)
        binaries = [relink(name, args.dir / "build" / name, v, out_dir / f"{name}-{v.name}") for v in (a, b)]
        exclude = rw.coverage_exclude(spec, root)
        work_root = args.dir / "ablation" / "runs" / name / tag
        branches = {a.name: [], b.name: []}
        seed_file = root / spec["seed"] if args.from_seed else None
        for i, seed in enumerate(args.seeds):
            cpu_of = {a.name: str(i % 2), b.name: str((i + 1) % 2)}
            for v, work in zip((a, b), paired_run((a, b), binaries, work_root, args.secs, seed, cpu_of, seed_file)):
                raw = v.fuzzer.raw_corpus(work / "cache" / "LLVMFuzzerTestOneInput", work / "raw")
                c = rw.coverage(coverage_build, raw, work / "profiles", exclude)
                branches[v.name].append(c["branches"])
                eps = v.fuzzer.execs_per_sec(work, True)
                log(f"  {name} seed {seed} {v.name}: {c['branches']} branches, {c['entries']} inputs, "
                    f"{rw.fmt(eps, human)} execs/s")
        ma, mb = statistics.median(branches[a.name]), statistics.median(branches[b.name])
        rows.append((name, ma, mb, branches[a.name], branches[b.name]))
        print(f"{name}: {a.name} {ma:g} {branches[a.name]}  {b.name} {mb:g} {branches[b.name]}  "
              f"{b.name}/{a.name} {rw.ratio(mb, ma)}", flush=True)
    header = (f"Paired, {args.secs} s per run, seeds {','.join(map(str, args.seeds))}, "
              f"{'from the seed file' if args.from_seed else 'empty corpus'}, {time.strftime('%Y-%m-%d %H:%M')}")
    lines = [f"# {header}", "", f"- A = {a.describe()}", f"- B = {b.describe()}", "",
             f"| library | half | {a.name} (median) | {b.name} (median) | {a.name} by seed | {b.name} by seed | B/A |",
             "|---|---|---|---|---|---|---|"]
    for name, ma, mb, ba, bb in rows:
        lines.append(f"| {name} | {rw.half_of(name)} | {ma:g} | {mb:g} | {', '.join(map(str, ba))} | "
                     f"{', '.join(map(str, bb))} | {rw.ratio(mb, ma)} |")
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    TABLE.write_text("\n".join(lines) + "\n")
    log(f"table written to {TABLE} ({(time.monotonic() - started) / 60:.1f} min)")


if __name__ == "__main__":
    main()
