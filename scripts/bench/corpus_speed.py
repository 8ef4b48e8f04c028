#!/usr/bin/env python3
"""Execs/s from an empty corpus against execs/s from a soak's grown corpus (issue 55).

Not part of the test suite. The hour's soak (scripts/bench/soak.py) saw cfuzz's execs/s fall
to 0.80-0.88 of the first minute's later in the hour, while its workers were replaced every
~10 s, so an aging worker process is an unlikely cause; a grown corpus of longer, deeper
inputs that take longer to run is a likely one. This tells the two apart: fresh processes,
the same binaries, once from nothing and once from the soak's final corpus. If the fresh run
from the grown corpus is as slow as the soak's late hour, the corpus is the cause.

For each pair (alternating which arm goes first), under the CPU lock, for --secs each:

  cfuzz      the soak's `cfuzz-asan` build, `cfuzz run -p 2 --keepfuzzing --json` (soak.py's
             command line) with an empty cache, then with a copy of the soak's final cache
             (copied afresh for every run: the original is never written)
  libFuzzer  the `libfuzzer-asan` build (soak.py --fuzzer libfuzzer's command line) with an
             empty corpus directory, then with a copy of the soak's corpus as raw files
             (`cfuzz corpus convert v12bin`)

Execs/s is taken over the last --window seconds (from cfuzz's JSON progress lines; from
libFuzzer's status lines, timestamped as they come, to its final "Done N runs"), so that the
start of a grown run, cfuzz's baseline of the cached corpus or libFuzzer's load up to INITED,
falls outside it; each run also reports how long that start took and the mean length of its
corpus at the end. Prints every run and, per fuzzer, the medians, their ratio grown/empty
and the median of the pairs' ratios (a pair's two runs are next to each other in time).

Each pair takes /tmp/cfuzz-cpu.lock itself (realworld.CpuLock): do not wrap the script in
flock. Needs the soak's builds (run soak.py once for each fuzzer) and build/bin/cfuzz; work
lives in --dir/runs/corpus-speed, never in the repository.

  python3 scripts/bench/corpus_speed.py                           # 3 pairs each, 60 s runs
  python3 scripts/bench/corpus_speed.py --fuzzer cfuzz --pairs 1
  python3 scripts/bench/corpus_speed.py --from-run /var/tmp/cfuzz-soak/runs/cfuzz-600s
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realworld  # noqa: E402
from bench import fresh_dir, log  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TEST = "LLVMFuzzerTestOneInput"


def mean_len(d):
    sizes = [f.stat().st_size for f in d.iterdir() if f.is_file()]
    return statistics.mean(sizes) if sizes else 0.0


def to_raw(cfuzz, entries, out):
    subprocess.run([str(cfuzz), "corpus", "convert", "v12bin", str(entries), "-o", str(out)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out


def run_cfuzz(args, binary, work, cache, seed):
    """execs/s over the last window, the start (s until fuzzing began), corpus and its mean length."""
    cmd = [args.cfuzz_build / "bin" / "cfuzz", "run", binary, "--cachedir", cache, "-p", 2,
           "--fuzztime", f"{args.secs}s", "--seed", seed, "--keepfuzzing", "--json"]
    with open(work / "stdout.txt", "wb") as out, open(work / "stderr.txt", "wb") as err:
        subprocess.run([str(c) for c in cmd], cwd=work, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                       check=True, timeout=args.secs * 3 + 120)
    events = [json.loads(line) for line in (work / "stdout.txt").read_text().splitlines() if line.startswith("{")]
    start = next(e["elapsed"] for e in events if e.get("event") == "fuzzing")
    progress = [e for e in events if e.get("event") == "progress" and e["elapsed"] > start]
    end = progress[-1]
    first = next(e for e in progress if e["elapsed"] >= end["elapsed"] - args.window)
    rate = (end["execs"] - first["execs"]) / (end["elapsed"] - first["elapsed"])
    raw = to_raw(args.cfuzz_build / "bin" / "cfuzz", cache / TEST, fresh_dir(work / "raw"))
    return rate, start, end["corpus"], mean_len(raw)


def run_libfuzzer(args, binary, work, corpus, seed):
    cmd = [binary, f"-max_total_time={args.secs}", f"-seed={seed}", "-timeout=10", corpus]
    user = os.environ.get("ASAN_OPTIONS")
    env = dict(os.environ, ASAN_OPTIONS="quarantine_size_mb=64" + (":" + user if user else ""))
    t0 = time.monotonic()
    lines = []  # (seconds since launch, execs, text)
    with open(work / "stderr.txt", "w") as log_file:
        proc = subprocess.Popen([str(c) for c in cmd], cwd=work, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True,
                                errors="replace")
        for line in proc.stderr:
            log_file.write(line)
            m = re.match(r"#(\d+)\t", line) or re.match(r"Done (\d+) runs", line)
            if m:
                lines.append((time.monotonic() - t0, int(m.group(1)), line))
        proc.wait()
    inited = next(t for t, _, text in lines if "INITED" in text)
    end_t, end_execs, _ = lines[-1]
    first_t, first_execs, _ = next(x for x in lines if x[0] >= end_t - args.window and x[0] >= inited)
    rate = (end_execs - first_execs) / (end_t - first_t)
    return rate, inited, len(list(corpus.iterdir())), mean_len(corpus)


def measure(args, fuzzer, binary, source):
    """Runs the pairs of one fuzzer; returns {"empty": [...], "grown": [...]} of result rows."""
    results = {"empty": [], "grown": []}
    for i in range(args.pairs):
        order = ("empty", "grown") if i % 2 == 0 else ("grown", "empty")
        with realworld.CpuLock():
            for arm in order:
                work = fresh_dir(args.dir / "runs" / "corpus-speed" / f"{fuzzer}-{arm}-{i + 1}")
                seed = args.seed + i
                if fuzzer == "cfuzz":
                    cache = work / "cache"
                    if arm == "grown":
                        shutil.copytree(source, cache)
                    r = run_cfuzz(args, binary, work, cache, seed)
                else:
                    corpus = work / "corpus"
                    if arm == "grown":
                        shutil.copytree(source, corpus)
                    else:
                        corpus.mkdir()
                    r = run_libfuzzer(args, binary, work, corpus, seed)
                log(f"{fuzzer} pair {i + 1} {arm}: {r[0]:.0f} execs/s over the last {args.window} s; "
                    f"start {r[1]:.1f} s; corpus {r[2]}, mean length {r[3]:.0f} bytes")
                results[arm].append(r)
    return results


def table(all_results, args):
    lines = [f"execs/s over the last {args.window} s of {args.secs} s runs, {args.pairs} pairs, medians "
             f"(start: until cfuzz's fuzzing event / libFuzzer's INITED)", "",
             "| fuzzer | from | execs/s | runs | start s | corpus at end | mean length B | grown/empty | pairs' |",
             "|---|---|---|---|---|---|---|---|---|"]
    for fuzzer, res in all_results.items():
        med = {arm: statistics.median(r[0] for r in res[arm]) for arm in res}
        pairs = [g[0] / e[0] for g, e in zip(res["grown"], res["empty"])]
        for arm in ("empty", "grown"):
            rows = res[arm]
            lines.append(f"| {fuzzer} | {arm} | {med[arm]:.0f} | {' / '.join(f'{r[0]:.0f}' for r in rows)} | "
                         f"{statistics.median(r[1] for r in rows):.1f} | "
                         f"{statistics.median(r[2] for r in rows):.0f} | "
                         f"{statistics.median(r[3] for r in rows):.0f} | "
                         + (f"{med['grown'] / med['empty']:.2f} | {statistics.median(pairs):.2f} "
                            f"({' / '.join(f'{x:.2f}' for x in pairs)}) |" if arm == "grown" else " | |"))
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fuzzer", choices=["cfuzz", "libfuzzer", "both"], default="both")
    ap.add_argument("--secs", type=int, default=60, help="each run's length (default: %(default)s)")
    ap.add_argument("--window", type=int, default=30, help="execs/s over the last N s (default: %(default)s)")
    ap.add_argument("--pairs", type=int, default=3, help="runs of each arm (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=5000, help="pair i uses seed+i (default: %(default)s)")
    ap.add_argument("--dir", type=Path, default=Path(os.environ.get("CFUZZ_SOAK_DIR", "/var/tmp/cfuzz-soak")),
                    help="soak.py's directory: its builds, and where runs go (default: %(default)s)")
    ap.add_argument("--from-run", type=Path,
                    help="the soak run whose final cache is the grown corpus (default: DIR/runs/hour-growth128)")
    ap.add_argument("--cfuzz-build", type=Path, default=Path(os.environ.get("CFUZZ_BUILD_DIR", ROOT / "build")),
                    help="the cfuzz build directory to use (default: $CFUZZ_BUILD_DIR or the repository's build/)")
    args = ap.parse_args(argv)
    args.cfuzz_build = args.cfuzz_build.resolve()
    source = (args.from_run or args.dir / "runs" / "hour-growth128") / "cache"
    if not (source / TEST).is_dir():
        ap.error(f"no corpus in {source / TEST}")
    fuzzers = ["cfuzz", "libfuzzer"] if args.fuzzer == "both" else [args.fuzzer]
    binaries = {f: args.dir / "build" / "libxml2" / f"{f}-asan" / "libxml2" for f in fuzzers}
    for f, b in binaries.items():
        if not b.exists():
            ap.error(f"no {b}: build it with scripts/bench/soak.py --fuzzer {f}")
    raw = to_raw(args.cfuzz_build / "bin" / "cfuzz", source / TEST,
                 fresh_dir(args.dir / "runs" / "corpus-speed" / "raw"))
    log(f"corpus-speed: grown corpus {source / TEST}: {len(list(raw.iterdir()))} entries, "
        f"mean length {mean_len(raw):.0f} bytes")
    results = {}
    for f in fuzzers:
        results[f] = measure(args, f, binaries[f], source if f == "cfuzz" else raw)
    out = table(results, args)
    (args.dir / "runs" / "corpus-speed" / "corpus_speed.md").write_text(out)
    print(out, end="", flush=True)


if __name__ == "__main__":
    main()
