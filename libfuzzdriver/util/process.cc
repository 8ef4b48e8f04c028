#include "libfuzzdriver/util/process.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace cfuzz::driver {

Process::~Process() {
  if (running()) {
    kill_group();
    wait();
  }
}

Process::Process(Process&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), reaped_(other.reaped_), status_(other.status_) {}

Process& Process::operator=(Process&& other) noexcept {
  if (this != &other) {
    if (running()) {
      kill_group();
      wait();
    }
    pid_ = std::exchange(other.pid_, -1);
    reaped_ = other.reaped_;
    status_ = other.status_;
  }
  return *this;
}

Process Process::spawn(const SpawnSpec& spec) {
  // Everything the child needs is prepared before fork: after it, in a multi-threaded
  // parent, the child may only make async-signal-safe calls.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry(*e);
    std::string name = entry.substr(0, entry.find('='));
    bool overridden = false;
    for (const auto& o : spec.env) {
      if (o.compare(0, name.size() + 1, name + "=") == 0) overridden = true;
    }
    if (!overridden) env_strings.push_back(std::move(entry));
  }
  for (const auto& o : spec.env) env_strings.push_back(o);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  std::vector<std::string> arg_strings{spec.program};
  arg_strings.insert(arg_strings.end(), spec.args.begin(), spec.args.end());
  std::vector<char*> argv;
  for (auto& s : arg_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  // A pipe that stays open on success (exec closes it) and carries errno on failure.
  auto [err_r, err_w] = make_pipe();
  pid_t parent = getpid();

  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    ::close(devnull);
    ::close(err_r);
    ::close(err_w);
    throw std::runtime_error("cannot start " + spec.program + ": fork: " + strerror(e));
  }
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    // Move the sources out of the way first, so that placing one cannot clobber another.
    int moved[16];
    std::size_t n = spec.fds.size() < 16 ? spec.fds.size() : 16;
    for (std::size_t i = 0; i < n; ++i) moved[i] = fcntl(spec.fds[i].first, F_DUPFD_CLOEXEC, 100);
    int in = devnull;
    for (std::size_t i = 0; i < n; ++i) {
      if (spec.fds[i].second == 0) in = -1;
    }
    if (in >= 0) dup2(in, 0);
    for (std::size_t i = 0; i < n; ++i) dup2(moved[i], spec.fds[i].second);  // dup2 clears CLOEXEC
    // Nothing else crosses exec: descriptors the coordinator inherited from its own parent
    // (a CI runner's, a shell's) are none of the target's business.
    int highest = 2;
    for (std::size_t i = 0; i < n; ++i) highest = spec.fds[i].second > highest ? spec.fds[i].second : highest;
    for (int fd = 3; fd < highest; ++fd) {
      bool placed = false;
      for (std::size_t i = 0; i < n; ++i) placed = placed || spec.fds[i].second == fd;
      if (!placed) fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    syscall(SYS_close_range, static_cast<unsigned>(highest + 1), ~0U, CLOSE_RANGE_CLOEXEC);
    if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) {
      int e = errno;
      ssize_t ignored = ::write(err_w, &e, sizeof e);
      (void)ignored;
      _exit(127);
    }
    execve(spec.program.c_str(), argv.data(), envp.data());
    int e = errno;
    ssize_t ignored = ::write(err_w, &e, sizeof e);
    (void)ignored;
    _exit(127);
  }
  ::close(devnull);
  ::close(err_w);
  int child_errno = 0;
  ssize_t got;
  do {
    got = ::read(err_r, &child_errno, sizeof child_errno);
  } while (got < 0 && errno == EINTR);
  ::close(err_r);
  Process p;
  p.pid_ = pid;
  if (got == static_cast<ssize_t>(sizeof child_errno)) {
    p.wait();
    throw std::runtime_error("cannot run " + spec.program + ": " + strerror(child_errno));
  }
  return p;
}

void Process::kill_group() {
  if (!running()) return;
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
}

void Process::signal(int sig) {
  if (running()) ::kill(pid_, sig);
}

bool Process::poll_exit() {
  if (pid_ <= 0) return true;
  if (reaped_) return true;
  int st = 0;
  pid_t r = waitpid(pid_, &st, WNOHANG);
  if (r == pid_) {
    status_ = st;
    reaped_ = true;
    // Whatever the target left running in its group goes too.
    ::kill(-pid_, SIGKILL);
  }
  return reaped_;
}

void Process::wait() {
  if (pid_ <= 0 || reaped_) return;
  int st = 0;
  pid_t r;
  do {
    r = waitpid(pid_, &st, 0);
  } while (r < 0 && errno == EINTR);
  status_ = st;
  reaped_ = true;
  ::kill(-pid_, SIGKILL);
}

std::uint64_t Process::rss_mb() const {
  if (!running()) return 0;
  std::ifstream statm("/proc/" + std::to_string(pid_) + "/statm");
  std::uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  static const long page = sysconf(_SC_PAGESIZE);
  return resident * static_cast<std::uint64_t>(page) / (1024 * 1024);
}

std::string run_and_capture(SpawnSpec spec, std::chrono::milliseconds timeout, int* status, int capture_fd) {
  auto [out_r, out_w] = make_pipe();
  int null_w = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  spec.fds.push_back({out_w, capture_fd});
  if (capture_fd != 1) spec.fds.push_back({null_w, 1});
  spec.fds.push_back({null_w, 2});
  Process p;
  try {
    p = Process::spawn(spec);
  } catch (...) {
    ::close(out_r);
    ::close(out_w);
    ::close(null_w);
    throw;
  }
  ::close(out_w);
  ::close(null_w);
  set_nonblocking(out_r);
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(out_r, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) break;
    if (errno != EAGAIN && errno != EINTR) break;
    if (std::chrono::steady_clock::now() > deadline) {
      p.kill_group();
      break;
    }
    usleep(1000);
  }
  ::close(out_r);
  p.wait();
  if (status != nullptr) *status = p.status();
  return out;
}

std::string find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (end > start && access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* name = sigabbrev_np(WTERMSIG(status));
    return std::string("signal ") + (name != nullptr ? std::string("SIG") + name : std::to_string(WTERMSIG(status)));
  }
  return "status " + std::to_string(status);
}

std::pair<int, int> make_pipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + strerror(errno));
  return {fds[0], fds[1]};
}

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace cfuzz::driver
