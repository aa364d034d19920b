// Crash recovery for the compiler. Clang, LLVM and the SPIR-V translator
// report an internal error by aborting (an assertion, which Debian's
// LLVMSPIRVLib keeps; report_fatal_error) or crash outright; a program
// that makes them do so must fail its build, not take the host program
// down. runRecoverably runs a function under llvm::CrashRecoveryContext: a
// SIGABRT, SIGSEGV, SIGILL, SIGBUS, SIGFPE or SIGTRAP on this thread while
// it runs returns false instead, also the fault of a stack overflow: the
// function runs on a build thread with a 256 MiB stack and an alternate
// signal stack (CrashRecovery.cpp says why). Objects the function created are then
// abandoned (leaked), never destroyed half-built, so the function must own
// everything it builds and must not hold a lock another build needs.
//
// The first call installs LLVM's crash-recovery signal handlers, process
// wide, once. A signal on a thread outside a recovery context restores the
// previous handlers and takes its normal course, so other libraries in the
// process (PoCL, sanitizers) behave as before.
#pragma once

#include <functional>

namespace weft::compiler {

bool runRecoverably(const std::function<void()> &Fn);

/// The build log's line for a build whose compiler crashed.
inline constexpr const char *CrashedBuildMessage =
    "error: internal compiler error: the compiler crashed on this program (an LLVM or Clang "
    "fatal error or fault, or nesting deeper than the compiler's stack holds)\n";

} // namespace weft::compiler
