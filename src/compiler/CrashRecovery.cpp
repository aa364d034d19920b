// Crash recovery for the compiler: every recoverable compile runs on a
// thread of its own with a large stack and an alternate signal stack, under
// llvm::CrashRecoveryContext.
//
// Why a thread of its own: Clang's parser and LLVM's passes recurse once
// per level of nesting in the program (a few thousand unbraced `if`s
// exhaust an 8 MiB stack), and the thread that calls clBuildProgram may
// have a small stack. BuildStackSize is reserved, not committed: pages are
// touched only as deep as a program nests. Why an alternate signal stack:
// a program nested deeper still overflows even that stack, and the SIGSEGV
// of an overflow can only be handled on another stack. LLVM's handlers are
// installed without SA_ONSTACK, so after installing them we add the flag;
// the handler then runs on the faulting build thread's alternate stack and
// jumps back out of the recovery context, and the build fails with a log.
#include "compiler/CrashRecovery.h"

#include <llvm/Support/CrashRecoveryContext.h>

#include <pthread.h>
#include <signal.h>

#include <cstdlib>
#include <exception>
#include <mutex>

namespace weft::compiler {

namespace {

/// The stack of a build thread: room for nesting some thirty times deeper
/// than an 8 MiB stack holds (about a million unbraced `if`s).
constexpr size_t BuildStackSize = size_t(256) << 20;
constexpr size_t AltStackSize = 256 * 1024;

thread_local bool OnBuildThread = false;

/// Adds SA_ONSTACK to the handlers CrashRecoveryContext installed, so that
/// they run on a thread's alternate stack when it has one.
void handleOnAlternateStack() {
  for (int Signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP}) {
    struct sigaction Action;
    if (sigaction(Signal, nullptr, &Action) == 0 && !(Action.sa_flags & SA_ONSTACK)) {
      Action.sa_flags |= SA_ONSTACK;
      sigaction(Signal, &Action, nullptr);
    }
  }
}

/// The build thread's alternate signal stack, for as long as it runs.
class AlternateStack {
public:
  AlternateStack() : Memory(std::malloc(AltStackSize)) {
    if (!Memory)
      return;
    stack_t S{};
    S.ss_sp = Memory;
    S.ss_size = AltStackSize;
    Installed = sigaltstack(&S, &Previous) == 0;
  }
  ~AlternateStack() {
    if (Installed)
      sigaltstack(&Previous, nullptr);
    std::free(Memory);
  }

private:
  void *Memory;
  stack_t Previous{};
  bool Installed = false;
};

struct BuildThread {
  const std::function<void()> *Fn;
  bool Survived = false;
  std::exception_ptr Error;
};

void *runBuildThread(void *Arg) {
  auto *T = static_cast<BuildThread *>(Arg);
  OnBuildThread = true;
  AlternateStack Alt;
  try {
    llvm::CrashRecoveryContext CRC;
    T->Survived = CRC.RunSafely(*T->Fn);
  } catch (...) {
    T->Error = std::current_exception();
  }
  return nullptr;
}

bool startBuildThread(pthread_t &Thread, BuildThread &T) {
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setstacksize(&Attr, BuildStackSize);
  const bool Started = pthread_create(&Thread, &Attr, runBuildThread, &T) == 0;
  pthread_attr_destroy(&Attr);
  return Started;
}

} // namespace

bool runRecoverably(const std::function<void()> &Fn) {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::CrashRecoveryContext::Enable();
    handleOnAlternateStack();
  });
  BuildThread T{&Fn, false, nullptr};
  pthread_t Thread;
  // Nested (a translation inside a build), this thread is a build thread
  // already; and with no thread to be had, run here, recoverable as before.
  if (OnBuildThread || !startBuildThread(Thread, T)) {
    llvm::CrashRecoveryContext CRC;
    return CRC.RunSafely(Fn);
  }
  pthread_join(Thread, nullptr);
  if (T.Error)
    std::rethrow_exception(T.Error);
  return T.Survived;
}

} // namespace weft::compiler
