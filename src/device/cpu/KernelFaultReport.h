// What WEFT_DEBUG=1 says when a kernel faults. A kernel that writes out of
// bounds or follows a bad pointer faults in a worker thread, and the
// process dies of it as it would of a fault in any native library
// (docs/robustness.md); with WEFT_DEBUG=1 it first prints which kernel and
// which work-group were running, on stderr.
//
// Each worker records the launch it is running (RunningKernel, a scope
// around the work-group loop); the report is a signal handler for SIGSEGV,
// SIGBUS, SIGILL and SIGFPE that writes that record with write(2) alone,
// then restores the handler it replaced and re-raises, so the fault takes
// its normal course (and a handler installed before, such as a debugger's
// or a sanitizer's, still sees it).
#pragma once

#include <array>
#include <cstdint>

namespace weft::cpu {

/// Installs the report (once per process) if WEFT_DEBUG is set.
void installKernelFaultReport();

/// While alive, the calling worker runs kernel Name; Group (updated by the
/// caller) is the work-group it is in.
class RunningKernel {
public:
  explicit RunningKernel(const char *Name);
  ~RunningKernel();
  RunningKernel(const RunningKernel &) = delete;
  RunningKernel &operator=(const RunningKernel &) = delete;
  std::array<uint64_t, 3> Group{};

private:
  RunningKernel *Outer;
  const char *Name;
  friend void reportKernelFault(int);
};

/// Writes the report for Signal and re-raises it (the signal handler).
void reportKernelFault(int Signal);

} // namespace weft::cpu
