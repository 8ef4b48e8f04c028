#!/usr/bin/env python3
"""How fast cfuzz starts, beside libFuzzer in the same run, on the empty target:

  python3 scripts/bench/startup.py [--entries 100000] [--runs 5]

  minimal run     launch to exit of `cfuzz run --fuzztime 1x` (no corpus) against
                  `-runs=1`, alternating, 2 x runs pairs
  big corpus      launch until fuzzing starts, on a corpus of N entries of 8-64 random bytes:
                  cfuzz's first run (no baseline file: every entry runs), its second run (the
                  baseline taken from the first), and libFuzzer's INITED line on the same files
                  as raw inputs; alternating, `runs` of each. Each cfuzz run is ended with
                  SIGINT once fuzzing started, as a user ends it, so that it keeps its baseline.
  peak RSS        of the cfuzz coordinator and of libFuzzer in the big-corpus runs (getrusage
                  of each process on its own, workers not included)

Medians, with every run's figure. Needs build/bin/cfuzz, build/bin/cfuzz-clang++ and clang
with libFuzzer (scripts/bench.sh builds and checks them). Run nothing else meanwhile."""
import argparse
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CFUZZ = ROOT / "build" / "bin" / "cfuzz"
CFUZZ_CXX = ROOT / "build" / "bin" / "cfuzz-clang++"
EMPTY = ROOT / "scripts" / "bench" / "targets" / "empty.cc"


def timed(cmd, marker=None, cwd=None):
    """Seconds from launch to exit, or to the first output line holding `marker` (the
    process then gets SIGINT and is waited for); and the process's own peak RSS in KiB."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd)
    seen = None
    for line in p.stdout:
        if marker is not None and seen is None and marker in line:
            seen = time.monotonic() - start
            p.send_signal(signal.SIGINT)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if marker is None:
        seen = time.monotonic() - start
    elif seen is None:
        sys.exit(f"startup: {cmd[0]} never printed {marker!r} (exit {p.returncode})")
    return seen, usage.ru_maxrss


def median_line(name, values, unit="s", fmt="{:.3f}"):
    shown = ", ".join(fmt.format(v) for v in values)
    print(f"{name:<34} median {fmt.format(statistics.median(values))} {unit}  ({shown})")
    return statistics.median(values)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=100000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cfuzz-startup-bench-"))
    try:
        cfuzz_target, libfuzzer_target = work / "cfuzz_empty", work / "libfuzzer_empty"
        subprocess.run([CFUZZ_CXX, "-O2", EMPTY, "-o", cfuzz_target], check=True)
        subprocess.run(["clang++", "-O2", "-fsanitize=fuzzer", EMPTY, "-o", libfuzzer_target], check=True)

        # Minimal runs: nothing to read, one execution.
        minimal = {"cfuzz": [], "libFuzzer": []}
        empty_cache = work / "empty-cache"
        for _ in range(2 * args.runs):
            shutil.rmtree(empty_cache, ignore_errors=True)
            minimal["cfuzz"].append(timed([CFUZZ, "run", cfuzz_target, "--cachedir", empty_cache, "--fuzztime",
                                           "1x", "--parallel", "1"], cwd=work)[0])
            minimal["libFuzzer"].append(timed([libfuzzer_target, "-runs=1"], cwd=work)[0])

        raw = work / "raw"
        raw.mkdir()
        rng = random.Random(1)
        for i in range(args.entries):
            (raw / f"{i:06d}").write_bytes(rng.randbytes(rng.randint(8, 64)))
        cache = work / "cache"
        entries = cache / "LLVMFuzzerTestOneInput"
        entries.mkdir(parents=True)
        names = sorted(str(p) for p in raw.iterdir())
        for k in range(0, len(names), 10000):  # batches: one command line holds only so much
            subprocess.run([CFUZZ, "corpus", "convert", "bin2v1", *names[k:k + 10000], "-o", entries], check=True,
                           stdout=subprocess.DEVNULL)

        big = {"cfuzz first run": [], "cfuzz second run": [], "libFuzzer": []}
        rss = {"cfuzz": [], "libFuzzer": []}
        baseline_file = cache / "LLVMFuzzerTestOneInput.baseline"
        cfuzz_cmd = [CFUZZ, "run", cfuzz_target, "--cachedir", cache, "--parallel", "2"]
        for _ in range(args.runs):
            baseline_file.unlink(missing_ok=True)
            secs, kib = timed(cfuzz_cmd, "now fuzzing", cwd=work)
            big["cfuzz first run"].append(secs)
            rss["cfuzz"].append(kib)
            if not baseline_file.exists():
                sys.exit("startup: the first run left no baseline file")
            big["cfuzz second run"].append(timed(cfuzz_cmd, "now fuzzing", cwd=work)[0])
            secs, kib = timed([libfuzzer_target, raw], "INITED", cwd=work)
            big["libFuzzer"].append(secs)
            rss["libFuzzer"].append(kib)

        print(f"empty target, {os.cpu_count()} CPUs; {args.entries} corpus entries of 8-64 random bytes")
        c = median_line("minimal run, cfuzz", minimal["cfuzz"])
        l = median_line("minimal run, libFuzzer", minimal["libFuzzer"])
        print(f"{'':<34} cfuzz/libFuzzer {c / l:.2f}")
        first = median_line("big corpus, cfuzz first run", big["cfuzz first run"])
        second = median_line("big corpus, cfuzz second run", big["cfuzz second run"])
        l = median_line("big corpus, libFuzzer to INITED", big["libFuzzer"])
        print(f"{'':<34} cfuzz/libFuzzer first run {first / l:.2f}, second run {second / l:.2f}")
        median_line("peak RSS, cfuzz coordinator", [k / 1024 for k in rss["cfuzz"]], "MiB", "{:.0f}")
        median_line("peak RSS, libFuzzer", [k / 1024 for k in rss["libFuzzer"]], "MiB", "{:.0f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
