// One program build: parse options, run the front end, the kernel pipeline
// and the JIT, each in a fresh LLVMContext so that builds on several host
// threads share nothing. LLVM's diagnostics are routed into the build log
// (the default handler would exit the process on an error).
#include "compiler/LlvmProgramCompiler.h"

#include "compiler/BuildOptions.h"
#include "compiler/ClangFrontend.h"
#include "compiler/HostTarget.h"
#include "compiler/JitExecutable.h"
#include "compiler/KernelPipeline.h"

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/Support/raw_ostream.h>

using namespace llvm;

namespace weft::rt {

ProgramCompiler &ProgramCompiler::get() {
  static weft::compiler::LlvmProgramCompiler Instance;
  return Instance;
}

} // namespace weft::rt

namespace weft::compiler {

namespace {

struct DiagnosticSink {
  std::string Text;
  bool HadError = false;
};

void handleDiagnostic(const DiagnosticInfo &DI, void *Context) {
  auto *Sink = static_cast<DiagnosticSink *>(Context);
  if (!Sink || DI.getSeverity() == DS_Remark || DI.getSeverity() == DS_Note)
    return;
  raw_string_ostream OS(Sink->Text);
  DiagnosticPrinterRawOStream DP(OS);
  OS << (DI.getSeverity() == DS_Error ? "error: " : "warning: ");
  DI.print(DP);
  OS << "\n";
  if (DI.getSeverity() == DS_Error)
    Sink->HadError = true;
}

rt::BuildFailure failure(std::string Log) { return rt::BuildFailure{CL_BUILD_PROGRAM_FAILURE, std::move(Log)}; }

} // namespace

std::variant<rt::BuildOutput, rt::BuildFailure>
LlvmProgramCompiler::buildSource(const std::string &Source, const std::string &Options) {
  std::string Why;
  std::optional<BuildOptions> Opts = BuildOptions::parse(Options, Why);
  if (!Opts)
    return rt::BuildFailure{CL_INVALID_BUILD_OPTIONS, Why};

  std::optional<orc::JITTargetMachineBuilder> JTMB = HostTarget::builder(Why);
  if (!JTMB)
    return failure("error: unsupported host: " + Why);
  Expected<std::unique_ptr<TargetMachine>> TM = JTMB->createTargetMachine();
  if (!TM)
    return failure("error: cannot create a target machine: " + toString(TM.takeError()));

  auto Context = std::make_unique<LLVMContext>();
  DiagnosticSink Sink;
  Context->setDiagnosticHandlerCallBack(handleDiagnostic, &Sink);
  std::string Log;
  std::unique_ptr<Module> M = ClangFrontend::compile(Source, *Opts, *Context, Log);
  if (!M)
    return failure(Log);

  rt::BuildOutput Out;
  KernelPipeline Pipeline(**TM, Opts->optDisabled(), Opts->kernelArgInfo());
  if (!Pipeline.run(*M, Out.Kernels, Log) || Sink.HadError)
    return failure(Log + Sink.Text);

  std::vector<std::string> Names;
  for (const rt::KernelDesc &D : Out.Kernels)
    Names.push_back(D.Name);
  // Keep our own reference to the context: ORC frees module and context
  // once compiled, and the diagnostic sink must be detached first.
  orc::ThreadSafeContext TSCtx(std::move(Context));
  std::unique_ptr<JitExecutable> Exe =
      JitExecutable::create(std::move(*JTMB), orc::ThreadSafeModule(std::move(M), TSCtx), Names, Log);
  TSCtx.getContext()->setDiagnosticHandlerCallBack(handleDiagnostic, nullptr);
  if (!Exe || Sink.HadError)
    return failure(Log + Sink.Text);
  Out.Exe = std::move(Exe);
  Out.Log = Log + Sink.Text;
  return Out;
}

} // namespace weft::compiler
