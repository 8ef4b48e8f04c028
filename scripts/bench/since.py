#!/usr/bin/env python3
"""Time to a bug planted by a commit, with and without `cfuzz run --since` (issue 56):

  python3 scripts/bench/since.py [--seeds 5] [--fuzztime 120] [--parallel 2] [--fields 3]

A library of four parsers and a decoder that picks one by the input's first byte, with four
fuzz tests (FuzzConfig, FuzzCsv, FuzzDecode, FuzzUrl, fuzzed in that order), is committed in a
temporary git repository; a second commit changes parse_record, which only FuzzDecode
reaches (and only with inputs starting with 'R'), planting a crash behind a magic, a version
and (by default) three fields that must come in order, each of its own type and length.
Each seed runs both modes, alternating, from an empty cache:

  plain   cfuzz run ./fuzz --all --fuzztime N     (the budget shared among the four tests)
  since   cfuzz run ./fuzz --since HEAD~1 --fuzztime N

The time to the bug is from launch to the run's "failure" event (--json), read as it comes;
a run that ends without it counts as the budget (and is marked). Prints each time, the
medians and their ratio. Needs build/bin/cfuzz and build/bin/cfuzz-clang++. Run nothing
else meanwhile (the lead's lock: flock /tmp/cfuzz-cpu.lock python3 scripts/bench/since.py)."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CFUZZ = ROOT / "build" / "bin" / "cfuzz"
CFUZZ_CXX = ROOT / "build" / "bin" / "cfuzz-clang++"

HEADER = """#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
int parse_config(const std::string& s);
int parse_csv(const std::string& s);
int parse_record(const uint8_t* p, size_t n);
int parse_url(const std::string& s);
int decode(const uint8_t* p, size_t n);
"""

LIB_COMMON = r"""
// Every format, chosen by its first byte.
int decode(const uint8_t* p, size_t n) {
  if (n == 0) return -1;
  std::string s(reinterpret_cast<const char*>(p), n);
  switch (p[0]) {
    case 'R': return parse_record(p, n);
    case '[': return parse_config(s);
    case 'h': return parse_url(s);
    default: return parse_csv(s);
  }
}

int parse_config(const std::string& s) {
  int keys = 0, depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '[') ++depth;
    else if (c == ']' && depth > 0) --depth;
    else if (c == '=' && i > 0 && s[i - 1] != ' ') ++keys;
    else if (c == '#' && depth == 0) break;
    else if (c == '\\' && i + 1 < s.size() && s[i + 1] == 'n') ++keys;
  }
  return keys * 16 + depth;
}

int parse_csv(const std::string& s) {
  int fields = 1, rows = 0;
  bool quoted = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) ++fields;
    else if (c == '\n' && !quoted) ++rows;
    else if (c == '\\' && quoted && i + 1 < s.size()) ++i;
  }
  return quoted ? -1 : rows * 100 + fields;
}

int parse_url(const std::string& s) {
  size_t colon = s.find("://");
  if (colon == std::string::npos) return -1;
  std::string scheme = s.substr(0, colon);
  int score = scheme == "http" ? 1 : scheme == "https" ? 2 : scheme == "ftp" ? 3 : 0;
  size_t at = s.find('@', colon);
  if (at != std::string::npos) score += 10;
  size_t port = s.find(':', colon + 3);
  if (port != std::string::npos) score += 100;
  if (s.find('?') != std::string::npos) score += 1000;
  return score;
}
"""

RECORD_BEFORE = r"""
int parse_record(const uint8_t* p, size_t n) {
  if (n < 4) return -1;
  if (p[0] != 'R' || p[1] != 'E') return 0;
  return p[2] + p[3];
}
"""

# The change: parse_record reads the fields of a record, and crashes on one whose fields have
# types 1 to FIELDS (3 unless --fields says) in order, each as long as its type plus one, past a header of five bytes.
RECORD_AFTER = r"""
int parse_record(const uint8_t* p, size_t n) {
  if (n < 4) return -1;
  if (p[0] != 'R' || p[1] != 'E') return 0;
  if (n < 8 || p[2] != 'C' || p[3] != 'D') return p[2] + p[3];
  if (p[4] != 2) return 1;  // version
  int expect = 1;
  for (size_t i = 5; i + 2 <= n;) {
    uint8_t type = p[i], len = p[i + 1];
    if (i + 2 + len > n) return -2;
    if (type == expect && len == type + 1) {
      if (++expect == FIELDS + 1) std::abort();  // the planted bug
    } else if (type == 0) {
      expect = 1;
    }
    i += 2 + len;
  }
  return expect;
}
"""

FUZZ = r"""#include <cfuzz/cfuzz.h>

#include "lib.h"

CFUZZ_TEST(FuzzConfig, f) {
  f.add(std::string("[a]\nk=v\n"));
  f.fuzz([](cfuzz::T&, const std::string& s) { parse_config(s); });
}

CFUZZ_TEST(FuzzCsv, f) {
  f.add(std::string("a,b\n\"c\",d\n"));
  f.fuzz([](cfuzz::T&, const std::string& s) { parse_csv(s); });
}

CFUZZ_TEST(FuzzDecode, f) {
  f.add(std::string("[a]\nk=v\n"));
  f.add(std::string("http://example.org/"));
  f.add(std::string("a,b\n"));
  f.add(std::string("RExx"));
  f.fuzz([](cfuzz::T&, const std::string& s) {
    decode(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  });
}

CFUZZ_TEST(FuzzUrl, f) {
  f.add(std::string("http://example.org/"));
  f.fuzz([](cfuzz::T&, const std::string& s) { parse_url(s); });
}
"""


def lib(record, fields):
    return f'#include "lib.h"\n\n#include <cstdlib>\n\n#define FIELDS {fields}\n' + LIB_COMMON + record


def git(repo, *args):
    subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.org", *args], cwd=repo,
                   check=True, stdout=subprocess.DEVNULL)


def make_repo(work, fields):
    repo = work / "repo"
    repo.mkdir()
    (repo / "lib.h").write_text(HEADER)
    (repo / "lib.cc").write_text(lib(RECORD_BEFORE, fields))
    (repo / "fuzz.cc").write_text(FUZZ)
    (repo / ".gitignore").write_text("fuzz\ntestdata/\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "four parsers")
    (repo / "lib.cc").write_text(lib(RECORD_AFTER, fields))
    git(repo, "commit", "-q", "-am", "parse_record reads a header")
    subprocess.run([str(CFUZZ_CXX), "-std=c++20", "-g", "-O1", "fuzz.cc", "lib.cc", "-o", "fuzz"], cwd=repo,
                   check=True)
    return repo


def time_to_bug(repo, work, mode, seed, fuzztime, parallel):
    """Seconds from launch to the failure event, and whether it came."""
    shutil.rmtree(repo / "testdata", ignore_errors=True)
    cache = work / f"cache-{mode}-{seed}"
    shutil.rmtree(cache, ignore_errors=True)
    args = [str(CFUZZ), "run", "./fuzz", "--fuzztime", f"{fuzztime}s", "--parallel", str(parallel), "--seed",
            str(seed), "--json", "--cachedir", str(cache)]
    args += ["--since", "HEAD~1"] if mode == "since" else ["--all"]
    started = time.monotonic()
    proc = subprocess.Popen(args, cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    found = None
    for line in proc.stdout:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") == "failure" and found is None:
            found = time.monotonic() - started
            if event.get("test") != "FuzzDecode":
                print(f"  unexpected failure in {event.get('test')}", file=sys.stderr)
    proc.wait()
    return (found, True) if found is not None else (float(fuzztime), False)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--fuzztime", type=int, default=120, help="budget of each run, seconds")
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--fields", type=int, default=3, help="fields the bug needs in order (its depth)")
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cfuzz-since-bench-"))
    try:
        repo = make_repo(work, a.fields)
        times = {"plain": [], "since": []}
        for seed in range(1, a.seeds + 1):
            for mode in ("plain", "since") if seed % 2 else ("since", "plain"):
                t, found = time_to_bug(repo, work, mode, seed, a.fuzztime, a.parallel)
                times[mode].append(t)
                print(f"seed {seed} {mode:5}: {t:6.1f} s{'' if found else ' (not found: the budget)'}", flush=True)
        plain, since = statistics.median(times["plain"]), statistics.median(times["since"])
        print(f"median plain: {plain:.1f} s   median since: {since:.1f} s   ratio plain/since: {plain / since:.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
