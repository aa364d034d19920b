// A fresh LLVMContext for one build whose diagnostics go into the build
// log (LLVM's default handler would print them and exit the process on an
// error), and the guard that keeps the process's first compiles apart.
#pragma once

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Support/raw_ostream.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace weft::compiler {

struct DiagnosticSink {
  std::string Text;
  bool HadError = false;
};

inline void handleDiagnostic(const llvm::DiagnosticInfo &DI, void *Context) {
  auto *Sink = static_cast<DiagnosticSink *>(Context);
  if (!Sink || DI.getSeverity() == llvm::DS_Remark || DI.getSeverity() == llvm::DS_Note)
    return;
  llvm::raw_string_ostream OS(Sink->Text);
  llvm::DiagnosticPrinterRawOStream DP(OS);
  OS << (DI.getSeverity() == llvm::DS_Error ? "error: " : "warning: ");
  DI.print(DP);
  OS << "\n";
  if (DI.getSeverity() == llvm::DS_Error)
    Sink->HadError = true;
}

/// A fresh LLVMContext whose diagnostics go to Sink. Not movable: the
/// context holds a pointer to Sink.
struct Session {
  Session() : Context(std::make_unique<llvm::LLVMContext>()) {
    Context->setDiagnosticHandlerCallBack(handleDiagnostic, &Sink);
    // Opaque pointers, as Clang 15 makes, whatever a bitcode input holds.
    Context->setOpaquePointers(true);
  }
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  std::unique_ptr<llvm::LLVMContext> Context;
  DiagnosticSink Sink;
};

/// Holds every build and every code generation back until one code
/// generation has finished in this process. The first build and the first
/// O3 and code generation create LLVM's and Clang's lazily built
/// process-wide singletons (managed statics, timer groups, option tables,
/// pass registries); some of those are not safe to create from several
/// threads at once, and the others use atomics inside libLLVM that
/// ThreadSanitizer cannot see. Once a holder has compiled a kernel with
/// O3 (compiledCode()), compiles run concurrently.
class FirstCompileGuard {
public:
  FirstCompileGuard() : Lock(Mutex, std::defer_lock) {
    if (!Warm.load(std::memory_order_acquire))
      Lock.lock();
  }
  FirstCompileGuard(const FirstCompileGuard &) = delete;
  FirstCompileGuard &operator=(const FirstCompileGuard &) = delete;
  /// The holder runs alone: no compile has finished in the process yet.
  bool alone() const { return Lock.owns_lock(); }
  /// The holder ran O3 and code generation to the end.
  void compiledCode() {
    if (Lock.owns_lock())
      Warm.store(true, std::memory_order_release);
  }

private:
  static inline std::mutex Mutex;
  static inline std::atomic<bool> Warm{false};
  std::unique_lock<std::mutex> Lock;
};

} // namespace weft::compiler
