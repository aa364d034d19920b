// The in-process OpenCL C front end. It builds a -cc1 argument list (the
// same a driver would), creates a CompilerInvocation from it, feeds the
// source as a remapped in-memory file and runs EmitLLVMOnlyAction.
//
// The front end runs at -O2 with -disable-llvm-passes: -O0 would mark every
// function optnone/noinline, which the work-group passes cannot inline; the
// real optimization happens after the work-group passes (KernelPipeline).
// Kernel argument names are always requested (-cl-kernel-arg-info) and
// dropped later unless the user asked for them.
#include "compiler/ClangFrontend.h"

#include "runtime/Capabilities.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

namespace weft::compiler {

namespace {

constexpr const char *InputName = "input.cl";

std::string extensionArg() {
  std::string Arg = "-cl-ext=-all";
  // Exactly what the device reports (one list, runtime/Capabilities.h).
  for (const auto &E : rt::DeviceExtensions)
    Arg += std::string(",+") + E.Name;
  for (const auto &F : rt::OpenCLCFeatures)
    Arg += std::string(",+") + F.Name;
  return Arg;
}

} // namespace

std::unique_ptr<llvm::Module> ClangFrontend::compile(const std::string &Source,
                                                     const BuildOptions &Opts,
                                                     llvm::LLVMContext &Ctx, std::string &Log) {
  std::vector<std::string> Args = {"-triple",
                                   "spir64-unknown-unknown",
                                   "-emit-llvm",
                                   "-O2",
                                   "-disable-llvm-passes",
                                   "-cl-std=" + Opts.clStd(),
                                   "-fdeclare-opencl-builtins",
                                   "-finclude-default-header",
                                   "-resource-dir",
                                   WEFT_CLANG_RESOURCE_DIR,
                                   extensionArg(),
                                   // The SPIR target predefines it; the device
                                   // reports no image support.
                                   "-U__IMAGE_SUPPORT__",
                                   // Clang leaves it to the target, and the
                                   // SPIR target does not define it: the
                                   // device's OpenCL version (3.0).
                                   "-D__OPENCL_VERSION__=300",
                                   "-cl-kernel-arg-info",
                                   "-x",
                                   "cl"};
  for (const std::string &A : Opts.cc1Args())
    Args.push_back(A);
  Args.push_back(InputName);
  std::vector<const char *> CArgs;
  for (const std::string &A : Args)
    CArgs.push_back(A.c_str());

  std::string DiagText;
  llvm::raw_string_ostream DiagStream(DiagText);
  auto Invocation = std::make_shared<clang::CompilerInvocation>();
  {
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> ArgDiagOpts = new clang::DiagnosticOptions();
    clang::TextDiagnosticPrinter ArgPrinter(DiagStream, ArgDiagOpts.get());
    clang::DiagnosticsEngine ArgDiags(new clang::DiagnosticIDs(), ArgDiagOpts.get(), &ArgPrinter,
                                      /*ShouldOwnClient=*/false);
    if (!clang::CompilerInvocation::CreateFromArgs(*Invocation, CArgs, ArgDiags) ||
        ArgDiags.hasErrorOccurred()) {
      Log += DiagStream.str();
      return nullptr;
    }
  }
  Invocation->getPreprocessorOpts().addRemappedFile(
      InputName, llvm::MemoryBuffer::getMemBufferCopy(Source, InputName).release());
  Invocation->getPreprocessorOpts().RetainRemappedFileBuffers = false;
  Invocation->getFrontendOpts().DisableFree = false;

  clang::CompilerInstance Instance;
  Instance.setInvocation(Invocation);
  Instance.createDiagnostics(new clang::TextDiagnosticPrinter(DiagStream,
                                                              &Instance.getDiagnosticOpts()),
                             /*ShouldOwnClient=*/true);
  clang::EmitLLVMOnlyAction Action(&Ctx);
  bool Ok = Instance.ExecuteAction(Action);
  DiagStream.flush();
  Log += DiagText;
  if (!Ok || Instance.getDiagnostics().hasErrorOccurred())
    return nullptr;
  std::unique_ptr<llvm::Module> M = Action.takeModule();
  if (!M) {
    Log += "error: the front end produced no module\n";
    return nullptr;
  }
  std::string VerifyText;
  llvm::raw_string_ostream VerifyStream(VerifyText);
  if (llvm::verifyModule(*M, &VerifyStream)) {
    Log += "error: the front end produced invalid IR:\n" + VerifyStream.str();
    return nullptr;
  }
  return M;
}

} // namespace weft::compiler
