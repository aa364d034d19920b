// A fresh LLVMContext for one build (or one part of a build, ParallelBackend)
// whose diagnostics go into the build log: LLVM's default handler would
// print them and exit the process on an error.
#pragma once

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
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

} // namespace weft::compiler
