#include "runtime/libfuzzer/libfuzzer_parallel.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include "runtime/libfuzzer/child_process.h"
#include "runtime/libfuzzer/libfuzzer_report.h"
#include "runtime/libfuzzer/libfuzzer_units.h"

namespace fuzzer::cfuzz {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kTimeoutExit = 70;
constexpr int kOomExit = 71;
constexpr int kInterruptedExit = 72;

void say(const std::string& line) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", line.c_str());
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A directory of the run's own under $TMPDIR, removed at the end.
class TempDir {
 public:
  explicit TempDir(const std::string& what) {
    const char* tmp = std::getenv("TMPDIR");
    path_ = fs::path(tmp != nullptr ? tmp : "/tmp") / ("libFuzzerTemp." + what + std::to_string(getpid()) + ".dir");
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// A child that found a failure another child had claimed first: not a report of its own.
bool lost_claim(const std::string& log) {
  return log.find("INFO: another process of this run reported a failure first") != std::string::npos;
}

// Ends children still running: they exit as interrupted (72), reporting nothing.
void stop_all(const std::map<pid_t, int>& running) {
  for (const auto& [pid, job] : running) kill(pid, SIGTERM);
}

// The last "#N\t... cov: C ft: F" status line of a child's log: its executions and coverage.
struct ChildStats {
  std::uint64_t execs = 0, cov = 0, ft = 0;
};
// Only the log's tail is read: it is read every 2 seconds, and grows for hours.
std::string tail_of(const fs::path& path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  auto size = static_cast<std::size_t>(std::max<std::streamoff>(in.tellg(), 0));
  in.seekg(static_cast<std::streamoff>(size > bytes ? size - bytes : 0));
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

ChildStats last_status(const fs::path& log) {
  static const std::regex status(R"(^#(\d+)\s+\S+(?: cov: (\d+))?(?: ft: (\d+))?)");
  ChildStats s;
  std::istringstream in(tail_of(log, 64 * 1024));
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, status)) {
      s.execs = std::stoull(m[1]);
      if (m[2].matched) s.cov = std::stoull(m[2]);
      if (m[3].matched) s.ft = std::stoull(m[3]);
    }
  }
  return s;
}

}  // namespace

int run_jobs(const LibFuzzerOptions& o, int argc, char** argv) {
  unsigned cores = std::thread::hardware_concurrency();
  int workers = o.workers > 0 ? o.workers : std::min<int>(o.jobs, static_cast<int>(cores / 2));
  if (workers <= 0) return -1;
  if (workers > 1) say("Running " + std::to_string(workers) + " workers");
  TempDir tmp("Jobs");
  std::string claim = (tmp.path() / "failure-claim").string();
  // Every failure of a job ends the run, as under libFuzzer's -jobs.
  std::vector<std::string> cmd = own_command(argc, argv, {"-jobs", "-workers", "-ignore_timeouts", "-ignore_ooms"},
                                             {"-ignore_timeouts=0", "-ignore_ooms=0"});
  std::map<pid_t, int> running;
  int next = 0, status = 0;
  bool stopping = false;
  while (next < o.jobs || !running.empty()) {
    while (!stopping && next < o.jobs && static_cast<int>(running.size()) < workers) {
      std::string log = "fuzz-" + std::to_string(next) + ".log";
      if (o.verbosity > 0) {
        std::string line;
        for (const auto& a : cmd) line += a + " ";
        say(line + "> " + log + " 2>&1");
      }
      pid_t pid = start_child(cmd, ChildOutput::File, log, {std::string(kFailureClaimEnv) + "=" + claim});
      if (pid < 0) {
        say("ERROR: cannot start job " + std::to_string(next));
        return 1;
      }
      running[pid] = next++;
    }
    if (running.empty()) break;
    int code = 0;
    pid_t pid = wait_any_child(&code);
    if (pid <= 0) break;
    int job = running[pid];
    running.erase(pid);
    say("================== Job " + std::to_string(job) + " exited with exit code " + std::to_string(code) +
        " ============");
    if (stopping) continue;  // stopped after another job's failure: nothing to report
    std::string log = slurp("fuzz-" + std::to_string(job) + ".log");
    if (lost_claim(log)) continue;  // the job that claimed the failure reports it
    std::fputs(log.c_str(), stderr);
    if (code != 0) {
      status = 1;
      stopping = true;
      stop_all(running);
    }
  }
  return status;
}

int run_fork(const LibFuzzerOptions& o, int argc, char** argv) {
  say("INFO: -fork=" + std::to_string(o.fork) + ": fuzzing in separate process(s)");
  TempDir tmp("FuzzWithFork");
  std::vector<std::string> dirs;
  for (const auto& in : o.inputs) dirs.push_back(in);
  fs::path main_corpus = dirs.empty() ? tmp.path() / "C" : fs::path(dirs[0]);
  std::vector<std::string> drop = {"-fork", "-runs", "-max_total_time", "-print_final_stats", "-reload"};
  std::vector<std::string> cmd = own_command(argc, argv, drop, {"-reload=1", "-print_final_stats=1"});
  if (dirs.empty()) {
    fs::create_directories(main_corpus);
    cmd.push_back(main_corpus.string());
  }
  std::string claim = (tmp.path() / "failure-claim").string();
  std::size_t seeds = 0;
  for (const auto& d : dirs) seeds += unit_files(d).size();
  say("INFO: -fork=" + std::to_string(o.fork) + ": " + std::to_string(seeds) + " seed inputs, starting to fuzz in " +
      tmp.path().string());

  auto start = Clock::now();
  auto seconds = [&] {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start).count());
  };
  std::map<pid_t, int> running;  // pid -> job
  std::map<int, ChildStats> finished;
  int next_job = 0;
  std::uint64_t crashes = 0, timeouts = 0, ooms = 0;
  auto start_job = [&] {
    int job = next_job++;
    fs::path log = tmp.path() / (std::to_string(job) + ".log");
    pid_t pid = start_child(cmd, ChildOutput::File, log.string(), {std::string(kFailureClaimEnv) + "=" + claim});
    if (pid > 0) running[pid] = job;
    return pid > 0;
  };
  for (int i = 0; i < o.fork; ++i) {
    if (!start_job()) {
      say("ERROR: cannot start a fuzzing process");
      return 1;
    }
  }
  auto status_line = [&](int job) {
    ChildStats total;
    for (const auto& [j, s] : finished) total.execs += s.execs;
    for (const auto& [pid, j] : running) {
      ChildStats s = last_status(tmp.path() / (std::to_string(j) + ".log"));
      total.execs += s.execs;
      total.cov = std::max(total.cov, s.cov);
      total.ft = std::max(total.ft, s.ft);
    }
    std::uint64_t secs = seconds();
    say("#" + std::to_string(total.execs) + ": cov: " + std::to_string(total.cov) + " ft: " + std::to_string(total.ft) +
        " corp: " + std::to_string(unit_files(main_corpus).size()) +
        " exec/s: " + std::to_string(secs == 0 ? 0 : total.execs / secs) +
        " oom/timeout/crash: " + std::to_string(ooms) + "/" + std::to_string(timeouts) + "/" + std::to_string(crashes) +
        " time: " + std::to_string(secs) + "s job: " + std::to_string(job) + " dft_time: 0");
  };

  int exit_code = 0;
  auto last_status_at = Clock::now();
  while (!running.empty()) {
    if (o.max_total_time > 0 && Clock::now() - start >= std::chrono::seconds(o.max_total_time)) {
      status_line(next_job - 1);
      say("INFO: fuzzed for " + std::to_string(seconds()) + " seconds, wrapping up soon");
      stop_all(running);
      break;
    }
    if (Clock::now() - last_status_at >= std::chrono::seconds(2)) {
      last_status_at = Clock::now();
      status_line(next_job - 1);
    }
    // Children are waited for without blocking, so that the time limit and the status
    // lines keep going.
    int code = 0, raw = 0;
    pid_t pid = waitpid(-1, &raw, WNOHANG);
    if (pid <= 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    code = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    int job = running[pid];
    running.erase(pid);
    fs::path log = tmp.path() / (std::to_string(job) + ".log");
    finished[job] = last_status(log);
    // Stopped, or another child reported the failure first (that one's log will tell).
    if (code == kInterruptedExit || lost_claim(slurp(log))) continue;
    bool ignored = (code == kTimeoutExit && o.ignore_timeouts) || (code == kOomExit && o.ignore_ooms) ||
                   (code != 0 && o.ignore_crashes);
    if (code == kTimeoutExit) ++timeouts;
    else if (code == kOomExit) ++ooms;
    else if (code != 0) ++crashes;
    status_line(job);
    if (code != 0 && !ignored) {
      say("INFO: log from the inner process:\n" + slurp(log));
      exit_code = code;
      stop_all(running);
      break;
    }
    start_job();  // the job ended (its time, or an ignored failure): another takes its place
  }
  int code = 0;
  while (!running.empty()) {
    pid_t pid = wait_any_child(&code);
    if (pid <= 0) break;
    running.erase(pid);
  }
  say("INFO: exiting: " + std::to_string(exit_code) + " time: " + std::to_string(seconds()) + "s");
  return exit_code;
}

}  // namespace fuzzer::cfuzz
