// Watching the RPC descriptors (fd 3 and 4) while the target runs.
//
// Between the target's executions the worker needs fd 3 and 4 for its RPC; the target
// must not touch them. To pin damage on the exact input that did it, the guard moves the
// real descriptors out of the way and puts decoy pipes on 3 and 4 that only this process
// reads; after an execution, a write into fd 4, or fd 3 or 4 closed or replaced, shows at
// once. Used for single executions and minimization, for replays of a damaged fuzz call,
// and in seed runs (where fds 3 and 4 are free), so that such an input also fails there.
#pragma once

#include <sys/types.h>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

struct FdIdentity {
  dev_t dev = 0;
  ino_t ino = 0;
  bool read(int fd);
  bool same_as(int fd) const;
};

class RpcGuard {
 public:
  // Puts decoys on fd 3 and 4, keeping whatever was there (if anything) to restore.
  RpcGuard();
  ~RpcGuard();
  RpcGuard(const RpcGuard&) = delete;
  RpcGuard& operator=(const RpcGuard&) = delete;

  // False if the target wrote to, closed or replaced fd 3 or 4 since the guard was set.
  bool intact() const;

 private:
  int saved_in_ = -1, saved_out_ = -1;
  int in_writer_ = -1, out_reader_ = -1;
  FdIdentity in_id_, out_id_;
};

}  // namespace fuzzer::cfuzz
