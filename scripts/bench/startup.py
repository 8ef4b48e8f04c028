#!/usr/bin/env python3
"""How fast cfuzz starts and scales on one machine, beside libFuzzer in the same run, on the
empty target (issue 19's table):

  python3 scripts/bench/startup.py [--entries 100000] [--runs 5]

  execs/s         one worker against libFuzzer's one process, and two workers over one,
                  `runs` runs of each, alternating, 5 s each: executions / wall-clock second
  minimal run     launch to exit of `cfuzz run --fuzztime 1x` (no corpus) against
                  `-runs=1`, alternating, 2 x runs pairs
  big corpus      launch until fuzzing starts, on a corpus of 20,000 and of N entries of 8-64 random bytes:
                  cfuzz's first run (no baseline file: every entry runs), its second run (the
                  baseline taken from the first), and libFuzzer's INITED line on the same files
                  as raw inputs; alternating, `runs` of each. Each cfuzz run is ended with
                  SIGINT once fuzzing started, as a user ends it, so that it keeps its baseline.
  peak RSS        of the cfuzz coordinator and of libFuzzer in the big-corpus runs (getrusage
                  of each process on its own, workers not included)
  conversion      `cfuzz corpus convert bin2v1` of the directory of N raw files, and `v12bin`
                  back, one command each
  short budget    `--fuzztime 2s` on the N-entry cache with no baseline file: what the run says

Medians, with every run's figure. Needs build/bin/cfuzz, build/bin/cfuzz-clang++ and clang
with libFuzzer (scripts/bench.sh builds and checks them). Run nothing else meanwhile."""
import argparse
import os
import random
import re
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


def execs_per_second(cmd, cwd, pattern):
    """Executions per wall-clock second of a whole run: the count its last summary gives."""
    start = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    wall = time.monotonic() - start
    found = re.findall(pattern, r.stdout + r.stderr)
    if not found:
        sys.exit(f"startup: no execution count from {cmd[0]}:\n{(r.stdout + r.stderr)[-2000:]}")
    return int(found[-1]) / wall


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

        # Executions per second: libFuzzer, one cfuzz worker, two, alternating.
        speed = {"libFuzzer": [], "cfuzz 1 worker": [], "cfuzz 2 workers": []}
        for _ in range(args.runs):
            speed["libFuzzer"].append(execs_per_second([libfuzzer_target, "-max_total_time=5"], work,
                                                       r"Done (\d+) runs"))
            for n, key in ((1, "cfuzz 1 worker"), (2, "cfuzz 2 workers")):
                shutil.rmtree(work / "speed-cache", ignore_errors=True)
                speed[key].append(execs_per_second(
                    [CFUZZ, "run", cfuzz_target, "--cachedir", work / "speed-cache", "--fuzztime", "5s",
                     "--parallel", str(n)], work, r"execs: (\d+)"))

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
        start = time.monotonic()
        subprocess.run([CFUZZ, "corpus", "convert", "bin2v1", raw, "-o", entries], check=True,
                       stdout=subprocess.DEVNULL)
        bin2v1_secs = time.monotonic() - start
        v1_names = sorted(str(p) for p in entries.iterdir())
        start = time.monotonic()
        subprocess.run([CFUZZ, "corpus", "convert", "v12bin", entries, "-o", work / "back"], check=True,
                       stdout=subprocess.DEVNULL)
        v12bin_secs = time.monotonic() - start
        # The first 20,000 entries as a cache of their own, and as raw files for libFuzzer.
        small_cache, small_raw = work / "cache20k", work / "raw20k"
        (small_cache / "LLVMFuzzerTestOneInput").mkdir(parents=True)
        small_raw.mkdir()
        for name in v1_names[:20000]:
            os.link(name, small_cache / "LLVMFuzzerTestOneInput" / Path(name).name)
        for name in names[:20000]:
            os.link(name, small_raw / Path(name).name)

        big = {}
        rss = {"cfuzz": [], "libFuzzer": []}
        for label, cache_dir, raw_dir in (("20k", small_cache, small_raw), ("big", cache, raw)):
            for key in ("cfuzz first run", "cfuzz second run", "libFuzzer"):
                big[f"{label} {key}"] = []
            baseline_file = cache_dir / "LLVMFuzzerTestOneInput.baseline"
            cfuzz_cmd = [CFUZZ, "run", cfuzz_target, "--cachedir", cache_dir, "--parallel", "2"]
            for _ in range(args.runs):
                baseline_file.unlink(missing_ok=True)
                secs, kib = timed(cfuzz_cmd, "now fuzzing", cwd=work)
                big[f"{label} cfuzz first run"].append(secs)
                if label == "big":
                    rss["cfuzz"].append(kib)
                if not baseline_file.exists():
                    sys.exit("startup: the first run left no baseline file")
                big[f"{label} cfuzz second run"].append(timed(cfuzz_cmd, "now fuzzing", cwd=work)[0])
                # New inputs go to a fresh first directory, so that the corpus stays the same.
                lf_out = work / "libfuzzer-new"
                shutil.rmtree(lf_out, ignore_errors=True)
                lf_out.mkdir()
                secs, kib = timed([libfuzzer_target, lf_out, raw_dir], "INITED", cwd=work)
                big[f"{label} libFuzzer"].append(secs)
                if label == "big":
                    rss["libFuzzer"].append(kib)

        (cache / "LLVMFuzzerTestOneInput.baseline").unlink(missing_ok=True)
        short = subprocess.run([CFUZZ, "run", cfuzz_target, "--cachedir", cache, "--parallel", "2", "--fuzztime",
                                "2s"], capture_output=True, text=True, cwd=work)
        said = [l for l in (short.stdout + short.stderr).splitlines() if "warning" in l or "PASS" in l]

        print(f"empty target, {os.cpu_count()} CPUs; {args.entries} corpus entries of 8-64 random bytes")
        lf = median_line("execs/s, libFuzzer", speed["libFuzzer"], "", "{:.0f}")
        one = median_line("execs/s, cfuzz 1 worker", speed["cfuzz 1 worker"], "", "{:.0f}")
        two = median_line("execs/s, cfuzz 2 workers", speed["cfuzz 2 workers"], "", "{:.0f}")
        print(f"{'':<34} cfuzz 1 worker/libFuzzer {one / lf:.2f}, 2 workers/1 worker {two / one:.2f}")
        c = median_line("minimal run, cfuzz", minimal["cfuzz"])
        l = median_line("minimal run, libFuzzer", minimal["libFuzzer"])
        print(f"{'':<34} cfuzz/libFuzzer {c / l:.2f}")
        for label, shown in (("20k", "20k corpus"), ("big", f"{args.entries // 1000}k corpus")):
            first = median_line(f"{shown}, cfuzz first run", big[f"{label} cfuzz first run"])
            second = median_line(f"{shown}, cfuzz second run", big[f"{label} cfuzz second run"])
            l = median_line(f"{shown}, libFuzzer to INITED", big[f"{label} libFuzzer"])
            print(f"{'':<34} cfuzz/libFuzzer first run {first / l:.2f}, second run {second / l:.2f}")
        median_line("peak RSS, cfuzz coordinator", [k / 1024 for k in rss["cfuzz"]], "MiB", "{:.0f}")
        median_line("peak RSS, libFuzzer", [k / 1024 for k in rss["libFuzzer"]], "MiB", "{:.0f}")
        print(f"{'bin2v1 of the raw files':<34} {bin2v1_secs:.2f} s; v12bin back {v12bin_secs:.2f} s")
        print(f"{'--fuzztime 2s, no baseline file':<34} " + " | ".join(said))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
