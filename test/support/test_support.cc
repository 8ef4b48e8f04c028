#include "test/support/test_support.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "libfuzzdriver/util/process.h"

namespace cfuzz::test {

namespace fs = std::filesystem;

std::string bin_dir() { return CFUZZ_TEST_BIN_DIR; }
std::string targets_dir() { return CFUZZ_TEST_TARGETS_DIR; }
std::string source_dir() { return CFUZZ_TEST_SOURCE_DIR; }
std::string cfuzz() { return bin_dir() + "/cfuzz"; }
std::string target(const std::string& name) { return targets_dir() + "/" + name; }

CommandResult run(const std::vector<std::string>& argv, const CommandOptions& options) {
  auto [out_r, out_w] = driver::make_pipe();
  auto [err_r, err_w] = driver::make_pipe();
  driver::SpawnSpec spec;
  spec.program = argv.at(0);
  spec.args.assign(argv.begin() + 1, argv.end());
  spec.env = options.env;
  spec.cwd = options.cwd;
  spec.fds = {{out_w, 1}, {err_w, 2}};
  driver::Process p = driver::Process::spawn(spec);
  close(out_w);
  close(err_w);
  CommandResult r;
  pollfd fds[2] = {{out_r, POLLIN, 0}, {err_r, POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  auto deadline = std::chrono::steady_clock::now() + options.timeout;
  char buf[65536];
  while (open_fds > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      p.kill_group();
      break;
    }
    int n = poll(fds, 2, static_cast<int>(std::min<long>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(got));
      } else {
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  close(out_r);
  close(err_r);
  p.wait();
  int st = p.status();
  if (WIFEXITED(st)) r.exit_code = WEXITSTATUS(st);
  if (WIFSIGNALED(st)) r.signal = WTERMSIG(st);
  return r;
}

struct Background::Impl {
  driver::Process process;
  TempDir dir;
};

Background::Background(const std::vector<std::string>& argv, const CommandOptions& options) : impl_(new Impl) {
  int out = ::open((impl_->dir / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int err = ::open((impl_->dir / "err").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  driver::SpawnSpec spec;
  spec.program = argv.at(0);
  spec.args.assign(argv.begin() + 1, argv.end());
  spec.env = options.env;
  spec.cwd = options.cwd;
  spec.fds = {{out, 1}, {err, 2}};
  impl_->process = driver::Process::spawn(spec);
  ::close(out);
  ::close(err);
}

Background::~Background() { delete impl_; }

pid_t Background::pid() const { return impl_->process.pid(); }

void Background::signal(int sig) { impl_->process.signal(sig); }

CommandResult Background::wait(std::chrono::seconds timeout) {
  CommandResult r;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!impl_->process.poll_exit()) {
    if (std::chrono::steady_clock::now() > deadline) {
      r.timed_out = true;
      impl_->process.kill_group();
      impl_->process.wait();
      break;
    }
    usleep(20000);
  }
  int st = impl_->process.status();
  if (WIFEXITED(st)) r.exit_code = WEXITSTATUS(st);
  if (WIFSIGNALED(st)) r.signal = WTERMSIG(st);
  r.out = read_file(impl_->dir / "out");
  r.err = read_file(impl_->dir / "err");
  return r;
}

std::string Background::out_so_far() const { return read_file(impl_->dir / "out"); }

bool Background::wait_for_output(const std::string& text, std::chrono::milliseconds within) const {
  auto deadline = std::chrono::steady_clock::now() + within;
  for (;;) {
    if (out_so_far().find(text) != std::string::npos) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

namespace {

// Workers that outlive their coordinator are re-parented to the nearest subreaper: making the
// test process one keeps them its descendants, so that a leak check sees only this test's
// processes even while other tests run the same target binary beside it.
const bool kIsSubreaper = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;

// Parent pid and state letter from /proc/<pid>/stat ("pid (comm) S ppid ..."), and the
// signal its parent gets when it ends (field 38).
bool read_stat(const fs::path& proc_dir, pid_t& ppid, char& state, int* exit_signal = nullptr) {
  std::ifstream in(proc_dir / "stat");  // none when the process is gone by now
  std::string stat;
  if (!std::getline(in, stat)) return false;
  auto close_paren = stat.rfind(')');
  if (close_paren == std::string::npos || close_paren + 4 >= stat.size()) return false;
  std::istringstream rest(stat.substr(close_paren + 2));
  if (!(rest >> state >> ppid)) return false;
  if (exit_signal == nullptr) return true;
  std::string field;
  for (int i = 5; i < 38; ++i) rest >> field;  // fields 5 to 37
  return static_cast<bool>(rest >> *exit_signal);
}

bool is_descendant_of_this_process(pid_t pid) {
  for (int depth = 0; depth < 64 && pid > 1; ++depth) {
    pid_t ppid = 0;
    char state = 0;
    if (!read_stat(fs::path("/proc") / std::to_string(pid), ppid, state)) return false;
    if (ppid == getpid()) return true;
    pid = ppid;
  }
  return false;
}

}  // namespace

std::vector<pid_t> processes_running(const std::string& exe) {
  std::vector<pid_t> pids;
  std::error_code ec;
  std::string want = fs::canonical(exe, ec).string();
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code ec2;
    fs::path link = fs::read_symlink(e.path() / "exe", ec2);
    if (ec2 || link.string() != want) continue;
    // Zombies (exited, not yet reaped) do not count, nor does the task a sanitizer clones for
    // a moment to stop the world (LeakSanitizer's leak check): it shares its parent's memory,
    // shows as a process of the same binary, and alone has no exit signal (fork, spawn and
    // clone with SIGCHLD give SIGCHLD). Counted, it made a -fork=2 run look like 3 children.
    pid_t ppid = 0;
    char state = 0;
    int exit_signal = 0;
    if (!read_stat(e.path(), ppid, state, &exit_signal) || state == 'Z' || exit_signal == 0) continue;
    auto pid = static_cast<pid_t>(std::stoi(name));
    if (kIsSubreaper && !is_descendant_of_this_process(pid)) continue;
    pids.push_back(pid);
  }
  return pids;
}

std::string line_after(const std::string& text, const std::string& prefix) {
  auto at = text.find(prefix);
  if (at == std::string::npos) return {};
  at += prefix.size();
  auto end = text.find('\n', at);
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> events;
  std::size_t at = 0;
  while (at < out.size()) {
    std::size_t nl = out.find('\n', at);
    std::string line = out.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? out.size() : nl + 1;
    if (line.empty()) continue;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << "not a JSON line: " << line;
    if (!j.is_discarded()) events.push_back(j);
  }
  return events;
}

nlohmann::json last_event(const std::string& out, const std::string& event) {
  nlohmann::json found;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] != '{') continue;
    auto j = nlohmann::json::parse(line);
    if (j["event"] == event) found = j;
  }
  return found;
}

}  // namespace cfuzz::test
