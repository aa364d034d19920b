// The WEFT_DEBUG report of a faulting kernel (KernelFaultReport.h).
#include "device/cpu/KernelFaultReport.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>

namespace weft::cpu {

namespace {

thread_local RunningKernel *Running = nullptr;

constexpr int Signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
struct sigaction Previous[std::size(Signals)];

void put(const char *S) { (void)!write(STDERR_FILENO, S, std::strlen(S)); }

void putNumber(uint64_t V) {
  char Digits[24];
  char *At = Digits + sizeof(Digits);
  *--At = 0;
  do {
    *--At = char('0' + V % 10);
    V /= 10;
  } while (V);
  put(At);
}

} // namespace

void reportKernelFault(int Signal) {
  if (RunningKernel *R = Running) {
    put("weft: kernel '");
    put(R->Name ? R->Name : "?");
    put("' faulted (signal ");
    putNumber(uint64_t(Signal));
    put(") in work-group (");
    for (int D = 0; D < 3; ++D) {
      putNumber(R->Group[D]);
      put(D < 2 ? ", " : ")\n");
    }
  }
  // The fault takes its normal course: the handler this one replaced.
  for (size_t I = 0; I < std::size(Signals); ++I)
    if (Signals[I] == Signal)
      sigaction(Signal, &Previous[I], nullptr);
  raise(Signal);
}

void installKernelFaultReport() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    const char *V = std::getenv("WEFT_DEBUG");
    if (!V || !*V || *V == '0')
      return;
    struct sigaction Action {};
    Action.sa_handler = reportKernelFault;
    sigemptyset(&Action.sa_mask);
    Action.sa_flags = SA_NODEFER | SA_ONSTACK;
    for (size_t I = 0; I < std::size(Signals); ++I)
      sigaction(Signals[I], &Action, &Previous[I]);
  });
}

RunningKernel::RunningKernel(const char *Name) : Outer(Running), Name(Name) { Running = this; }
RunningKernel::~RunningKernel() { Running = Outer; }

} // namespace weft::cpu
