// A mutex the compiler can reason about. Under clang with -Wthread-safety, members marked
// CFUZZ_GUARDED_BY(mu) may only be touched with `mu` held, and functions marked
// CFUZZ_REQUIRES(mu) only called with it held; a build that breaks either rule warns (and
// fails under CFUZZ_WERROR). Other compilers see plain std::mutex code.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#if defined(__clang__)
#define CFUZZ_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define CFUZZ_THREAD_ANNOTATION(x)
#endif

#define CFUZZ_CAPABILITY(x) CFUZZ_THREAD_ANNOTATION(capability(x))
#define CFUZZ_SCOPED_CAPABILITY CFUZZ_THREAD_ANNOTATION(scoped_lockable)
#define CFUZZ_GUARDED_BY(x) CFUZZ_THREAD_ANNOTATION(guarded_by(x))
#define CFUZZ_REQUIRES(...) CFUZZ_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define CFUZZ_EXCLUDES(...) CFUZZ_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define CFUZZ_ACQUIRE(...) CFUZZ_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define CFUZZ_RELEASE(...) CFUZZ_THREAD_ANNOTATION(release_capability(__VA_ARGS__))

namespace cfuzz::driver {

class CFUZZ_CAPABILITY("mutex") Mutex {
 public:
  void lock() CFUZZ_ACQUIRE() { m_.lock(); }
  void unlock() CFUZZ_RELEASE() { m_.unlock(); }

 private:
  friend class MutexLock;
  std::mutex m_;
};

// Holds a Mutex for its scope.
class CFUZZ_SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) CFUZZ_ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~MutexLock() CFUZZ_RELEASE() { mu_.unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  // Waits on `cv` for at most `d`, letting go of the mutex meanwhile; it is held again on
  // return (to the analysis, it never stopped being held: what was read before may have
  // changed, as after any wait).
  template <class Rep, class Period>
  void wait_for(std::condition_variable& cv, std::chrono::duration<Rep, Period> d) {
    std::unique_lock<std::mutex> held(mu_.m_, std::adopt_lock);
    cv.wait_for(held, d);
    held.release();
  }

 private:
  Mutex& mu_;
};

}  // namespace cfuzz::driver
