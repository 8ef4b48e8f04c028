#!/usr/bin/env python3
"""cfuzz against libFuzzer and AFL++ on the same targets, in one run, interleaved.

Called by scripts/bench.sh after it has built cfuzz. Figures, each the median over repeated
runs with different seeds (every run of every fuzzer starts from the same seed input):

  execs/sec        the empty and the slow target, 1 worker and 2 workers
  time to crash    puzzles that need coverage or comparison guidance, the JSON parser's
                   planted bug; capped, runs that did not find it count as the cap
  deep bugs        time to crash on targets whose bugs need structure, not a magic value:
                   nested records with exact lengths, a checksum over a region, a counter
                   that must reach N, a long run of one byte, values behind a switch table,
                   exact lengths in nested text and in JSON
  structure        time to crash where the harness's own custom mutator is needed
                   (LLVMFuzzerCustomMutator over a zlib stream; the target links -lz), and
                   what the custom-mutator path costs: execs/sec of the empty target with a
                   mutator that only calls LLVMFuzzerMutate, over the empty target's
  coverage         JSON parser after a fixed time: each fuzzer's final corpus replayed through
                   one clang source-coverage build (llvm-cov branches and lines)
  peak memory      resident set of the whole fuzzer process tree (sampled every 100 ms)
  scaling          execs/sec with 2 workers over 1 worker
  typed            (with --only typed) typed fuzz tests (a container, a struct with an optional,
                   domains) beside the same logic as raw-bytes tests in one binary, both fuzzed
                   by cfuzz: time to the planted bug and execs/sec, typed over raw
  frontend         (with --only frontend) the same targets run as libFuzzer binaries: cfuzz's
                   libFuzzer front end beside libFuzzer and `cfuzz run`, one process each:
                   execs/sec of the empty target, time to crash on the puzzles, the parser
                   and the deep targets

Each line ends with cfuzz/libFuzzer; the Markdown table goes to build/bench/results.md.
"""
import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build"
OUT = BUILD / "bench"
CFUZZ = BUILD / "bin" / "cfuzz"
CFUZZ_CXX = BUILD / "bin" / "cfuzz-clang++"
SOURCES = ROOT / "scripts" / "bench" / "targets"

# Puzzles and the parser are built with AddressSanitizer where the bug needs it to be seen.
TARGETS = {
    "empty": {"asan": False},
    "slow": {"asan": False},
    "nested_word": {"asan": False},
    "memcmp_magic": {"asan": False},
    "chain32": {"asan": False},
    "strcmp_keyword": {"asan": False},
    "switch_magic": {"asan": False},
    "json_parser": {"asan": True},
    # Deep bugs: structure rather than a magic value (the "deep" part).
    "deep_tlv": {"asan": False},
    "checksum_region": {"asan": False},
    "counter_n": {"asan": False},
    "repeated_run": {"asan": False},
    "switch_sum": {"asan": False, "opt": "-O2"},  # -O2: the switch becomes a range check and a table
    "nested_netstring": {"asan": True},
    "json_deep": {"asan": True, "source": "json_parser", "defines": ["-DBENCH_NO_BUG", "-DBENCH_DEEP_BUG"]},
    # Structure-aware: the harness's own LLVMFuzzerCustomMutator is needed (the "structure" part).
    "zlib_keyword": {"asan": False, "libs": ["-lz"]},
    "empty_custom": {"asan": False},  # the custom-mutator path's own cost
}
PUZZLES = ["nested_word", "memcmp_magic", "chain32", "strcmp_keyword", "switch_magic"]
DEEP = ["deep_tlv", "checksum_region", "counter_n", "repeated_run", "switch_sum", "nested_netstring", "json_deep"]
STRUCTURE = ["zlib_keyword"]
# Typed tests and their raw-bytes twins (scripts/bench/targets/typed_tests.cc).
TYPED = [("container", "FuzzSequence"), ("struct and optional", "FuzzRequest"), ("domains", "FuzzPlan")]
SEED_INPUT = {"json_parser": b'{"a":[1,"x",true,null]}', "json_deep": b'{"a":[1,"x",true,null]}'}
DEFAULT_SEED_INPUT = b"0"

MODES = {
    # runs, seconds per execs/sec run, puzzle cap, parser-bug runs and cap, coverage runs and time
    "quick": dict(exec_runs=1, exec_secs=3, puzzle_runs=3, puzzle_cap=5, bug_runs=1, bug_cap=25,
                  cov_runs=1, cov_secs=12, deep_runs=3, deep_cap=30),
    "full": dict(exec_runs=5, exec_secs=10, puzzle_runs=5, puzzle_cap=30, bug_runs=3, bug_cap=150,
                 cov_runs=3, cov_secs=60, deep_runs=3, deep_cap=120),
}

FUZZERS = ["cfuzz", "libFuzzer", "AFL++"]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- processes and memory

def process_tree_rss_kb(root_pid):
    """Resident set of root_pid and all its descendants, in KiB."""
    parent = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        parent[int(entry)] = int(fields[1])
    tree, frontier = {root_pid}, [root_pid]
    while frontier:
        p = frontier.pop()
        for child, ppid in parent.items():
            if ppid == p and child not in tree:
                tree.add(child)
                frontier.append(child)
    total = 0
    for pid in tree:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


class Result:
    def __init__(self, code, wall, peak_rss_kb, out, err, first_line_at):
        self.code, self.wall, self.peak_rss_kb = code, wall, peak_rss_kb
        self.out, self.err, self.first_line_at = out, err, first_line_at


def run(cmd, cwd, env=None, timeout=None, sample_rss=False, watch=None):
    """Runs cmd in its own process group; returns its exit code, wall time, peak tree RSS,
    output, and the time at which a stdout line containing `watch` first appeared."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    cwd.mkdir(parents=True, exist_ok=True)
    out_path, err_path = cwd / "stdout.txt", cwd / "stderr.txt"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.monotonic()
        p = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=full_env, stdout=out, stderr=err,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        peak, seen_at, next_sample = 0, None, 0.0
        while p.poll() is None:
            now = time.monotonic() - start
            if timeout is not None and now > timeout:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                break
            if sample_rss and now >= next_sample:
                peak = max(peak, process_tree_rss_kb(p.pid))
                next_sample = now + 0.1
            if watch is not None and seen_at is None and watch.encode() in out_path.read_bytes():
                seen_at = now
            time.sleep(0.02)
        wall = time.monotonic() - start
    try:
        os.killpg(p.pid, signal.SIGKILL)  # leftovers (AFL++'s forkserver children, say)
    except ProcessLookupError:
        pass
    kill_strays()
    if watch is not None and seen_at is None and watch.encode() in out_path.read_bytes():
        seen_at = wall
    return Result(p.returncode, wall, peak, out_path.read_text(errors="replace"),
                  err_path.read_text(errors="replace"), seen_at)


def kill_strays():
    """Kills benchmark target processes that outlived their fuzzer (AFL++ can leave stopped
    forkserver children behind, and they keep the CPUs they were bound to)."""
    bins = str(OUT / "bin") + "/"
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{entry}/exe").startswith(bins):
                os.kill(int(entry), signal.SIGKILL)
        except OSError:
            pass


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def sh(cmd, env=None, cwd=None):
    full_env = dict(os.environ)
    full_env.update(env or {})
    r = subprocess.run([str(c) for c in cmd], env=full_env, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"bench: {' '.join(str(c) for c in cmd)} failed:\n{r.stdout}{r.stderr}")
    return r.stdout


# ---------------------------------------------------------------- builds

def build_all(have_afl):
    bins = fresh_dir(OUT / "bin")
    log("building the targets (cfuzz-clang++, clang -fsanitize=fuzzer"
        + (", afl-clang-fast++)" if have_afl else ")"))
    for name, props in TARGETS.items():
        src = SOURCES / f"{props.get('source', name)}.cc"
        variants = [("", props.get("defines", []))]
        if name == "json_parser":
            variants.append(("_nobug", ["-DBENCH_NO_BUG"]))  # coverage runs: fuzz the full time
        for suffix, defs in variants:
            common = ["-std=c++20", props.get("opt", "-O1"), "-g", *defs, str(src), *props.get("libs", [])]
            san = ["-fsanitize=address"] if props["asan"] else []
            sh([CFUZZ_CXX, *san, *common, "-o", bins / f"cfuzz_{name}{suffix}"])
            fuzzer = ["-fsanitize=fuzzer" + (",address" if props["asan"] else "")]
            sh(["clang++", *fuzzer, *common, "-o", bins / f"libfuzzer_{name}{suffix}"])
            if have_afl:
                sh(["afl-clang-fast++", *fuzzer, *common, "-o", bins / f"afl_{name}{suffix}"],
                   env={"AFL_QUIET": "1"})
                sh(["afl-clang-fast++", *fuzzer, *common, "-o", bins / f"aflcmplog_{name}{suffix}"],
                   env={"AFL_QUIET": "1", "AFL_LLVM_CMPLOG": "1"})
    # The typed tests, with and without their planted bugs (cfuzz only: typed tests are its own).
    for suffix, defs in (("", []), ("_nobug", ["-DBENCH_NO_BUG"])):
        sh([CFUZZ_CXX, "-std=c++20", "-O1", "-g", *defs, SOURCES / "typed_tests.cc", "-o", bins / f"typed_tests{suffix}"])
    # One source-coverage build of the parser measures every fuzzer's corpus the same way.
    sh(["clang++", "-std=c++20", "-O1", "-g", "-fprofile-instr-generate", "-fcoverage-mapping", "-DBENCH_NO_BUG",
        SOURCES / "json_parser.cc", SOURCES / "replay_main.cc", "-o", bins / "coverage_json_parser"])
    return bins


# ---------------------------------------------------------------- one run of one fuzzer

def seed_files(target, seeds_dir):
    fresh_dir(seeds_dir)
    (seeds_dir / "seed").write_bytes(SEED_INPUT.get(target, DEFAULT_SEED_INPUT))
    return seeds_dir


class Cfuzz:
    name = "cfuzz"

    def __init__(self, bins):
        self.bins = bins

    def _start(self, work, target):
        seeds = seed_files(target, work / "seeds")
        sh([CFUZZ, "corpus", "convert", "bin2v1", seeds / "seed", "-o",
            work / "testdata" / "fuzz" / "LLVMFuzzerTestOneInput"])

    def _cmd(self, work, binary, workers, fuzztime, seed):
        return [CFUZZ, "run", self.bins / binary, "--cachedir", work / "cache", "--parallel", workers,
                "--fuzztime", fuzztime, "--seed", seed, "--json"]

    @staticmethod
    def _events(out):
        for line in out.splitlines():
            if line.startswith("{"):
                yield json.loads(line)

    def execs(self, work, target, workers, secs, seed):
        self._start(work, target)
        r = run(self._cmd(work, f"cfuzz_{target}", workers, f"{secs}s", seed), work, sample_rss=True)
        done = [e for e in self._events(r.out) if e["event"] == "done"]
        if not done:
            sys.exit(f"bench: cfuzz run gave no summary:\n{r.out}{r.err}")
        return done[-1]["execs"] / r.wall, r.peak_rss_kb

    def crash(self, work, target, cap, seed):
        self._start(work, target)
        r = run(self._cmd(work, f"cfuzz_{target}", 1, f"{cap}s", seed), work, timeout=cap + 120,
                watch='"event":"minimizing"')
        if r.code != 1:
            return None
        # The failure is found when minimization starts; minimizing it is not part of the figure.
        return r.first_line_at if r.first_line_at is not None else r.wall

    def corpus(self, work, target, secs, seed):
        self._start(work, target)
        r = run(self._cmd(work, f"cfuzz_{target}_nobug", 1, f"{secs}s", seed), work, sample_rss=True)
        # The entries are in cache/<FuzzName>/; beside them are the run's stats and baseline.
        entries = [p for p in (work / "cache").rglob("*") if p.is_file() and p.parent != work / "cache"]
        raw = fresh_dir(work / "raw")
        if entries:
            sh([CFUZZ, "corpus", "convert", "v12bin", *entries, "-o", raw])
        shutil.copy(work / "seeds" / "seed", raw / "seed")
        return raw, r.peak_rss_kb


class TypedTests:
    """One fuzz test of the typed_tests binary, under cfuzz run."""

    def __init__(self, bins):
        self.bins = bins

    def _cmd(self, work, binary, test, fuzztime, seed):
        return [CFUZZ, "run", self.bins / binary, "--fuzz", f"^{test}$", "--srcdir", work, "--cachedir",
                work / "cache", "--parallel", 1, "--fuzztime", fuzztime, "--seed", seed, "--json"]

    def execs(self, work, test, secs, seed):
        r = run(self._cmd(work, "typed_tests_nobug", test, f"{secs}s", seed), work)
        done = [e for e in Cfuzz._events(r.out) if e["event"] == "done"]
        if not done:
            sys.exit(f"bench: cfuzz run gave no summary:\n{r.out}{r.err}")
        return done[-1]["execs"] / r.wall

    def crash(self, work, test, cap, seed):
        r = run(self._cmd(work, "typed_tests", test, f"{cap}s", seed), work, timeout=cap + 120,
                watch='"event":"minimizing"')
        if r.code != 1:
            return None
        return r.first_line_at if r.first_line_at is not None else r.wall


class LibFuzzer:
    name = "libFuzzer"

    def __init__(self, bins):
        self.bins = bins
        self.prefix = "libfuzzer"  # the binaries built with -fsanitize=fuzzer

    def execs(self, work, target, workers, secs, seed):
        corpus = seed_files(target, work / "corpus")
        args = [self.bins / f"{self.prefix}_{target}", f"-max_total_time={secs}", f"-seed={seed}",
                "-print_final_stats=1", f"-artifact_prefix={work}/"]
        if workers > 1:
            # Parallel jobs: independent fuzzing processes sharing the corpus directory, each
            # logging to fuzz-<n>.log (libFuzzer's -fork mode restarts jobs and runs slower here).
            args += [f"-jobs={workers}", f"-workers={workers}"]
        r = run([*args, corpus], work, sample_rss=True)
        logs = "".join(p.read_text(errors="replace") for p in work.glob("fuzz-*.log")) if workers > 1 else r.err
        counts = [int(m) for m in re.findall(r"stat::number_of_executed_units:\s*(\d+)", logs)]
        if len(counts) != workers:
            sys.exit(f"bench: no execution count from libFuzzer:\n{logs[-2000:]}")
        return sum(counts) / r.wall, r.peak_rss_kb

    def crash(self, work, target, cap, seed):
        corpus = seed_files(target, work / "corpus")
        r = run([self.bins / f"{self.prefix}_{target}", f"-max_total_time={cap}", f"-seed={seed}",
                 f"-artifact_prefix={work}/", corpus], work, timeout=cap + 60)
        found = any(work.glob("crash-*")) or any(work.glob("leak-*"))
        return r.wall if found else None

    def corpus(self, work, target, secs, seed):
        corpus = seed_files(target, work / "corpus")
        r = run([self.bins / f"{self.prefix}_{target}_nobug", f"-max_total_time={secs}", f"-seed={seed}",
                 f"-artifact_prefix={work}/", corpus], work, sample_rss=True)
        return corpus, r.peak_rss_kb


class CfuzzLibFuzzerFrontEnd(LibFuzzer):
    """The cfuzz-built target run as a libFuzzer binary: cfuzz's engine behind libFuzzer's flags."""
    name = "cfuzz -flags"

    def __init__(self, bins):
        super().__init__(bins)
        self.prefix = "cfuzz"


class Aflpp:
    name = "AFL++"
    # AFL++ binds itself to a free CPU (without it, it ran 9 times slower here); kill_strays()
    # keeps stopped leftovers from holding CPUs and making it refuse to start.
    ENV = {"AFL_SKIP_CPUFREQ": "1", "AFL_NO_UI": "1", "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES": "1"}

    def __init__(self, bins):
        self.bins = bins

    @staticmethod
    def _stats(path):
        stats = {}
        if path.exists():
            for line in path.read_text().splitlines():
                k, _, v = line.partition(":")
                stats[k.strip()] = v.strip()
        return stats

    def _cmd(self, work, target, secs, seed, role, cmplog):
        cmd = ["afl-fuzz", "-i", work / "in", "-o", work / "out", "-s", seed, "-V", secs, "-m", "none"]
        if role:
            cmd += role
        if cmplog:
            cmd += ["-c", self.bins / f"aflcmplog_{target}"]
        return [*cmd, "--", self.bins / f"afl_{target}"]

    def execs(self, work, target, workers, secs, seed):
        seed_files(target, work / "in")
        if workers == 1:
            r = run(self._cmd(work, target, secs, seed, None, False), work, env=self.ENV, sample_rss=True)
            stats = [self._stats(work / "out" / "default" / "fuzzer_stats")]
        else:
            # main and secondary instances side by side, as AFL++ runs in parallel.
            script = " & ".join(
                " ".join(f"'{c}'" for c in self._cmd(work, target, secs, seed + i, role, False))
                for i, role in enumerate([["-M", "main"], ["-S", "second"]])) + " & wait"
            r = run(["sh", "-c", script], work, env=self.ENV, sample_rss=True)
            stats = [self._stats(work / "out" / n / "fuzzer_stats") for n in ("main", "second")]
        execs = sum(int(s.get("execs_done", 0)) for s in stats)
        if execs == 0:
            sys.exit(f"bench: no execution count from AFL++:\n{r.out[-2000:]}{r.err[-2000:]}")
        return execs / r.wall, r.peak_rss_kb

    def crash(self, work, target, cap, seed):
        seed_files(target, work / "in")
        env = dict(self.ENV, AFL_BENCH_UNTIL_CRASH="1")
        r = run(self._cmd(work, target, cap, seed, None, True), work, env=env, timeout=cap + 60)
        stats = self._stats(work / "out" / "default" / "fuzzer_stats")
        crashes = int(stats.get("saved_crashes", stats.get("unique_crashes", "0")))
        return r.wall if crashes > 0 else None

    def corpus(self, work, target, secs, seed):
        seed_files(target, work / "in")
        r = run(self._cmd(work, f"{target}_nobug", secs, seed, None, True), work, env=self.ENV,
                sample_rss=True)
        return work / "out" / "default" / "queue", r.peak_rss_kb


# ---------------------------------------------------------------- measuring coverage

def coverage_of(bins, corpus_dir, work):
    files = sorted(str(p) for p in corpus_dir.iterdir() if p.is_file())
    fresh_dir(work)
    env = {"LLVM_PROFILE_FILE": str(work / "replay.profraw")}
    sh([bins / "coverage_json_parser", *files], env=env)
    sh(["llvm-profdata", "merge", "-sparse", work / "replay.profraw", "-o", work / "replay.profdata"])
    summary = json.loads(sh(["llvm-cov", "export", "-summary-only", "-instr-profile",
                             work / "replay.profdata", "-ignore-filename-regex=replay_main",
                             bins / "coverage_json_parser"]))
    totals = summary["data"][0]["totals"]
    return totals["branches"]["covered"], totals["lines"]["covered"], len(files)


# ---------------------------------------------------------------- the run

class Table:
    def __init__(self, fuzzers, ratio=("cfuzz", "libFuzzer")):
        self.fuzzers = fuzzers
        self.ratio = ratio  # the ratio column: ratio[0] / ratio[1]
        self.rows = []

    def add(self, figure, values, fmt, higher_is_better, note=""):
        """values: fuzzer name -> number (or None). Prints the line, keeps the row."""
        shown = {f: (fmt(values[f]) if values.get(f) is not None else "n/a") for f in self.fuzzers}
        c, l = values.get(self.ratio[0]), values.get(self.ratio[1])
        ratio = f"{c / l:.2f}" if c is not None and l not in (None, 0) else "n/a"
        better = "higher is better" if higher_is_better else "lower is better"
        parts = "  ".join(f"{f} {shown[f]}" for f in self.fuzzers)
        print(f"{figure}: {parts}  {self.ratio[0]}/{self.ratio[1]} {ratio} ({better}){'  ' + note if note else ''}",
              flush=True)
        self.rows.append((figure, shown, ratio, better, note))

    def markdown(self):
        head = "| figure | " + " | ".join(self.fuzzers) + f" | {self.ratio[0]}/{self.ratio[1]} | |\n"
        head += "|---" * (len(self.fuzzers) + 3) + "|\n"
        body = ""
        for figure, shown, ratio, better, note in self.rows:
            cells = " | ".join(shown[f] for f in self.fuzzers)
            body += f"| {figure} | {cells} | {ratio} | {better}{'; ' + note if note else ''} |\n"
        return head + body


def human(n):
    for unit, div in (("M", 1e6), ("K", 1e3)):
        if n >= div:
            return f"{n / div:.2f}{unit}"
    return f"{n:.0f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="about 5 minutes instead of about an hour")
    ap.add_argument("--no-afl", action="store_true", help="leave AFL++ out even when it is installed")
    ap.add_argument("--only", default="speed,crash,deep,structure,coverage",
                    help="comma-separated parts to run: speed (execs/sec, memory, scaling), crash "
                         "(comparison puzzles, the parser's bug), deep (structure-dependent bugs), structure "
                         "(custom mutators), coverage; or, not in the default set: frontend (the targets run as "
                         "libFuzzer binaries: cfuzz's libFuzzer front end beside libFuzzer and cfuzz run), typed (typed "
                         "fuzz tests against the same logic over raw bytes), realworld (real libraries "
                         "from Debian source packages, scripts/bench/realworld.py, whose options may follow), "
                         "startup (minimal run, a 100k-entry corpus's first and second start, peak RSS: "
                         "scripts/bench/startup.py)")
    ap.add_argument("--runs", type=int, metavar="N",
                    help="seeds per time-to-crash figure (crash, deep, structure, frontend), instead of the mode's: "
                         "sub-second figures need more than three to settle")
    ap.add_argument("--targets", metavar="LIST",
                    help="comma-separated: only these targets' time-to-crash figures (crash, deep, structure, frontend)")
    args, rest = ap.parse_known_args()
    mode = dict(MODES["quick" if args.quick else "full"])
    if args.runs is not None:
        if args.runs < 1:
            ap.error(f"--runs: expected a count of at least 1, got {args.runs}")
        mode.update(puzzle_runs=args.runs, bug_runs=args.runs, deep_runs=args.runs)
    chosen = None
    if args.targets:
        chosen = set(args.targets.split(","))
        known = PUZZLES + ["json_parser"] + DEEP + STRUCTURE
        if not chosen <= set(known):
            ap.error(f"--targets: unknown target {', '.join(sorted(chosen - set(known)))}; expected some of "
                     f"{', '.join(known)}")
    parts = set(args.only.split(","))
    if "startup" in parts:
        import startup
        sys.argv = [sys.argv[0]] + ["--runs", "3" if args.quick else "5"]
        startup.main()
        parts.discard("startup")
        if not parts:
            return
    if "realworld" in parts:
        import realworld
        realworld.main(["--quick"] * args.quick + rest)
        parts.discard("realworld")
        if not parts:
            return
    elif rest:
        ap.error(f"unrecognized arguments: {' '.join(rest)}")
    if not parts <= {"speed", "crash", "deep", "structure", "coverage", "frontend", "typed"}:
        ap.error(f"--only: unknown part in {args.only!r}; expected speed, crash, deep, structure, coverage, "
                 "frontend, typed")
    have_afl = not args.no_afl and shutil.which("afl-fuzz") is not None and shutil.which("afl-clang-fast++")
    bins = build_all(have_afl)
    fuzzers = [Cfuzz(bins), LibFuzzer(bins)] + ([Aflpp(bins)] if have_afl else [])
    table = Table([f.name for f in fuzzers])
    runs_dir = fresh_dir(OUT / "runs")
    counter = [0]

    def work_dir(tag):
        counter[0] += 1
        return fresh_dir(runs_dir / f"{counter[0]:04d}-{tag}")

    log(f"mode: {'quick' if args.quick else 'full'} {mode}")
    print(f"# cfuzz benchmark, {'quick' if args.quick else 'full'} mode, {os.cpu_count()} CPUs, "
          f"{time.strftime('%Y-%m-%d %H:%M')}", flush=True)

    # Execution speed, memory and scaling.
    if "speed" in parts:
        rates = {}
        for target in ("empty", "slow"):
            for workers in (1, 2):
                per = {f.name: [] for f in fuzzers}
                rss = {f.name: [] for f in fuzzers}
                for rep in range(mode["exec_runs"]):
                    for f in fuzzers:  # interleaved: each repetition runs every fuzzer once
                        rate, peak = f.execs(work_dir(f"{f.name}-execs-{target}-{workers}"), target, workers,
                                             mode["exec_secs"], 1000 + rep)
                        per[f.name].append(rate)
                        rss[f.name].append(peak)
                med = {k: statistics.median(v) for k, v in per.items()}
                rates[(target, workers)] = med
                table.add(f"execs/sec, {target} target, {workers} worker{'s' if workers > 1 else ''}", med, human,
                          True, f"median of {mode['exec_runs']} runs of {mode['exec_secs']} s")
                if workers == 2:
                    table.add(f"peak RSS of the process tree, {target} target, 2 workers",
                              {k: statistics.median(v) / 1024 for k, v in rss.items()},
                              lambda v: f"{v:.0f} MiB", False)
        for target in ("empty", "slow"):
            table.add(f"scaling 1 to 2 workers, {target} target",
                      {f.name: rates[(target, 2)][f.name] / rates[(target, 1)][f.name] for f in fuzzers},
                      lambda v: f"{v:.2f}x", True)

    # Time to first crash (runs that do not find it count as the cap).
    def time_to_crash(target, runs, cap, fuzzers=fuzzers, table=table):
        if chosen is not None and target not in chosen:
            return
        times = {f.name: [] for f in fuzzers}
        for rep in range(runs):
            for f in fuzzers:
                t = f.crash(work_dir(f"{f.name}-crash-{target}"), target, cap, 2000 + rep)
                log(f"  {target} {f.name} seed {2000 + rep}: {'not found' if t is None else f'{t:.2f} s'}")
                times[f.name].append(t)
        med, found = {}, {}
        for name, ts in times.items():
            found[name] = sum(t is not None for t in ts)
            med[name] = statistics.median(cap if t is None else t for t in ts)
        note = f"median of {runs}, cap {cap} s; found " + ", ".join(f"{n} {found[n]}/{runs}" for n in found)
        table.add(f"time to crash, {target}", med,
                  lambda v: f">{cap} s" if v >= cap else f"{v:.2f} s", False, note)

    if "crash" in parts:
        for target in PUZZLES:
            time_to_crash(target, mode["puzzle_runs"], mode["puzzle_cap"])
        time_to_crash("json_parser", mode["bug_runs"], mode["bug_cap"])

    # Time to a deep, structure-dependent bug.
    if "deep" in parts:
        for target in DEEP:
            time_to_crash(target, mode["deep_runs"], mode["deep_cap"])

    # Time to a bug behind an encoding, through the harness's custom mutator.
    if "structure" in parts:
        for target in STRUCTURE:
            time_to_crash(target, mode["deep_runs"], mode["deep_cap"])
        # AFL++ does not call libFuzzer's mutator hooks: only cfuzz and libFuzzer here.
        peers = [f for f in fuzzers if f.name != "AFL++"]
        rate = {}
        for target in ("empty", "empty_custom"):
            per = {f.name: [] for f in peers}
            for rep in range(mode["exec_runs"]):
                for f in peers:
                    r, _ = f.execs(work_dir(f"{f.name}-execs-{target}"), target, 1, mode["exec_secs"], 1000 + rep)
                    per[f.name].append(r)
            rate[target] = {k: statistics.median(v) for k, v in per.items()}
        note = f"median of {mode['exec_runs']} runs of {mode['exec_secs']} s"
        table.add("execs/sec, empty target with a custom mutator that calls LLVMFuzzerMutate, 1 worker",
                  rate["empty_custom"], human, True, note)
        table.add("custom-mutator path / built-in path, execs/sec of the empty target",
                  {k: rate["empty_custom"][k] / rate["empty"][k] for k in rate["empty"]},
                  lambda v: f"{v:.2f}x", True, note)

    # Coverage of the parser after a fixed time, measured by one coverage build.
    if "coverage" in parts:
        branches = {f.name: [] for f in fuzzers}
        lines = {f.name: [] for f in fuzzers}
        sizes = {f.name: [] for f in fuzzers}
        rss = {f.name: [] for f in fuzzers}
        for rep in range(mode["cov_runs"]):
            for f in fuzzers:
                work = work_dir(f"{f.name}-coverage")
                corpus, peak = f.corpus(work, "json_parser", mode["cov_secs"], 3000 + rep)
                b, l, n = coverage_of(bins, corpus, work / "coverage")
                log(f"  json_parser coverage {f.name}: {b} branches, {l} lines, {n} corpus files")
                branches[f.name].append(b)
                lines[f.name].append(l)
                sizes[f.name].append(n)
                rss[f.name].append(peak)
        note = f"median of {mode['cov_runs']} runs of {mode['cov_secs']} s, 1 worker"
        med = lambda d: {k: statistics.median(v) for k, v in d.items()}
        table.add("json_parser branches covered", med(branches), lambda v: f"{v:.0f}", True, note)
        table.add("json_parser lines covered", med(lines), lambda v: f"{v:.0f}", True, note)
        table.add("json_parser final corpus entries", med(sizes), lambda v: f"{v:.0f}", False, note)
        table.add("peak RSS of the process tree, json_parser (ASan), 1 worker",
                  {k: v / 1024 for k, v in med(rss).items()}, lambda v: f"{v:.0f} MiB", False)

    # The libFuzzer front end: the same targets run as libFuzzer binaries, against libFuzzer
    # and against `cfuzz run` (one process each).
    markdown = table.markdown() if table.rows else ""
    if "frontend" in parts:
        front = [CfuzzLibFuzzerFrontEnd(bins), LibFuzzer(bins), Cfuzz(bins)]
        names = [f.name for f in front]
        vs_libfuzzer = Table(names, ratio=("cfuzz -flags", "libFuzzer"))
        per = {f.name: [] for f in front}
        for rep in range(mode["exec_runs"]):
            for f in front:
                rate, _ = f.execs(work_dir(f"{f.name}-execs-empty"), "empty", 1, mode["exec_secs"], 1000 + rep)
                per[f.name].append(rate)
        vs_libfuzzer.add("execs/sec, empty target, 1 process", {k: statistics.median(v) for k, v in per.items()},
                         human, True, f"median of {mode['exec_runs']} runs of {mode['exec_secs']} s")
        # The deep targets that some fuzzer finds within the cap.
        for target in PUZZLES + ["json_parser", "deep_tlv", "counter_n", "repeated_run", "switch_sum",
                                 "nested_netstring"]:
            cap = mode["bug_cap"] if target == "json_parser" else mode["deep_cap"] if target in DEEP else mode["puzzle_cap"]
            runs = mode["bug_runs"] if target == "json_parser" else mode["deep_runs"] if target in DEEP else mode["puzzle_runs"]
            time_to_crash(target, runs, cap, fuzzers=front, table=vs_libfuzzer)
        markdown += "\n" + vs_libfuzzer.markdown()

    # Typed tests against the same logic over raw bytes, both under cfuzz.
    if "typed" in parts:
        typed = TypedTests(bins)
        kinds = ["typed", "raw bytes"]
        vs_raw = Table(kinds, ratio=("typed", "raw bytes"))
        cap, runs = mode["deep_cap"], 3
        for label, test in TYPED:
            names = {"typed": test, "raw bytes": test + "Raw"}
            times = {k: [] for k in kinds}
            for rep in range(runs):
                for k in kinds:
                    t = typed.crash(work_dir(f"typed-crash-{names[k]}"), names[k], cap, 2000 + rep)
                    log(f"  {names[k]} seed {2000 + rep}: {'not found' if t is None else f'{t:.2f} s'}")
                    times[k].append(t)
            found = {k: sum(t is not None for t in ts) for k, ts in times.items()}
            note = f"median of {runs}, cap {cap} s; found " + ", ".join(f"{k} {found[k]}/{runs}" for k in kinds)
            vs_raw.add(f"time to bug, {label}", {k: statistics.median(cap if t is None else t for t in ts)
                                                  for k, ts in times.items()},
                       lambda v: f">{cap} s" if v >= cap else f"{v:.2f} s", False, note)
            rates = {k: [] for k in kinds}
            for rep in range(mode["exec_runs"]):
                for k in kinds:
                    rates[k].append(typed.execs(work_dir(f"typed-execs-{names[k]}"), names[k], mode["exec_secs"],
                                                1000 + rep))
            vs_raw.add(f"execs/sec, {label}", {k: statistics.median(v) for k, v in rates.items()}, human, True,
                       f"median of {mode['exec_runs']} runs of {mode['exec_secs']} s, 1 worker, no bug")
        markdown += "\n" + vs_raw.markdown()

    (OUT / "results.md").write_text(markdown)
    log(f"table written to {OUT / 'results.md'}")


if __name__ == "__main__":
    main()
