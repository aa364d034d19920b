// Program builds, compiles and links: parse options, run the front end, the
// kernel pipeline and the JIT, each in a fresh LLVMContext so that builds on
// several host threads share nothing. LLVM's diagnostics are routed into the
// log (the default handler would exit the process on an error).
//
// buildSource is compileSource + link without the bitcode round trip: the
// front end's module goes straight into the pipeline. An object keeps only
// the kernel argument names its compile options asked for
// (-cl-kernel-arg-info), so link() keeps whatever names its inputs carry.
#include "compiler/LlvmProgramCompiler.h"

#include "compiler/CompilerSession.h"
#include "compiler/CrashRecovery.h"
#include "compiler/KernelPipeline.h"
#include "compiler/codegen/DiskCache.h"
#include "compiler/codegen/HostTarget.h"
#include "compiler/codegen/JitExecutable.h"
#include "compiler/codegen/ProgramParts.h"
#include "compiler/frontend/BuildOptions.h"
#include "compiler/frontend/ClangFrontend.h"
#include "compiler/frontend/SpirvFrontend.h"
#include "compiler/vectorize/DotProductPass.h"
#include "compiler/vectorize/VectorMath.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <mutex>

using namespace llvm;

namespace weft::rt {

ProgramCompiler &ProgramCompiler::get() {
  static weft::compiler::LlvmProgramCompiler Instance;
  return Instance;
}

} // namespace weft::rt

namespace weft::compiler {

namespace {

std::vector<unsigned char> writeBitcode(const Module &M) {
  SmallVector<char, 0> Buffer;
  raw_svector_ostream OS(Buffer);
  WriteBitcodeToFile(M, OS);
  return std::vector<unsigned char>(Buffer.begin(), Buffer.end());
}

/// Where a build's result goes in the disk cache (DiskCache.h), the host
/// target its key names (and the build then uses), and what the entry holds
/// besides what finish() produces: the translated module of an IL build and
/// the digests of the files the front end read.
struct CacheSlot {
  DiskCache Cache;
  orc::JITTargetMachineBuilder Target;
  std::string Key;
  std::vector<unsigned char> Linked;
  rt::FileDigests Inputs;
};

std::string targetId(const orc::JITTargetMachineBuilder &JTMB) {
  // The code calls libmvec's vector forms only where the host has libmvec.
  return JTMB.getCPU() + " " + JTMB.getFeatures().getString() +
         (VectorMath::available() ? " libmvec" : "");
}

/// The slot of a build whose inputs are Parts, or nullopt when the cache is
/// disabled or the host cannot be described.
std::optional<CacheSlot> cacheSlot(std::initializer_list<std::string_view> Parts) {
  std::optional<DiskCache> Cache = DiskCache::fromEnvironment();
  std::string Why;
  std::optional<orc::JITTargetMachineBuilder> JTMB =
      Cache ? HostTarget::builder(Why) : std::nullopt;
  if (!JTMB)
    return std::nullopt;
  std::string Key = DiskCache::key(targetId(*JTMB), Parts);
  return CacheSlot{std::move(*Cache), std::move(*JTMB), std::move(Key), {}, {}};
}

/// Where Slot's program keeps the objects of its kernels.
KernelObjectCache kernelObjects(const CacheSlot &Slot) {
  return {Slot.Cache, targetId(Slot.Target)};
}

/// The build the disk cache holds for Slot, with the JIT made; nullopt on
/// a miss (or an entry the JIT refuses, which the build then replaces).
std::optional<rt::BuildOutput> loadCached(const std::optional<CacheSlot> &Slot) {
  if (!Slot)
    return std::nullopt;
  std::optional<CachedBuild> B = Slot->Cache.load(Slot->Key);
  if (!B || B->Objects.size() > 1 || B->PreparedIR.empty())
    return std::nullopt;
  PreparedProgram P;
  for (const rt::KernelDesc &D : B->Kernels)
    P.Kernels.push_back(D.Name);
  P.Module = std::move(B->PreparedIR);
  if (!B->Objects.empty())
    P.Variables = std::move(B->Objects[0]);
  P.OptDisable = B->OptDisable;
  P.Specializable = B->Specializable;
  std::string Log;
  std::unique_ptr<JitExecutable> Exe =
      JitExecutable::create(Slot->Target, std::move(P), kernelObjects(*Slot), Log);
  if (!Exe)
    return std::nullopt;
  rt::BuildOutput Out;
  Out.Exe = std::move(Exe);
  Out.Kernels = std::move(B->Kernels);
  Out.Log = std::move(B->Log);
  Out.GlobalVariableSize = B->GlobalVariableSize;
  Out.Linked = std::move(B->Linked);
  Out.FromDiskCache = true;
  Out.Inputs = std::move(B->Inputs);
  return Out;
}

/// Runs the kernel pipeline on M (of S.Context) and makes the JIT, and
/// stores the result in Slot's cache entry if there is one.
/// FailCode is the error of the calling entry point (build or link failure).
std::variant<rt::BuildOutput, rt::BuildFailure> finish(Session &S, std::unique_ptr<Module> M,
                                                       bool OptDisable, bool KernelArgInfo,
                                                       std::string Log, cl_int FailCode,
                                                       const std::optional<CacheSlot> &Slot = {}) {
  auto failure = [&](std::string Text) { return rt::BuildFailure{FailCode, std::move(Text)}; };
  std::string Why;
  std::optional<orc::JITTargetMachineBuilder> JTMB =
      Slot ? std::optional(Slot->Target) : HostTarget::builder(Why);
  if (!JTMB)
    return failure(Log + "error: unsupported host: " + Why);
  Expected<std::unique_ptr<TargetMachine>> TM = JTMB->createTargetMachine();
  if (!TM)
    return failure(Log + "error: cannot create a target machine: " + toString(TM.takeError()));

  rt::BuildOutput Out;
  KernelPipeline Pipeline(**TM, OptDisable, KernelArgInfo);
  Out.GlobalVariableSize = KernelPipeline::globalVariableSize(*M);
  if (!Pipeline.prepare(*M, Out.Kernels, Log) || S.Sink.HadError)
    return failure(Log + S.Sink.Text);
  // What the program calls and does not define must resolve now: a launch
  // would find it missing only when its kernel is compiled.
  std::vector<std::string> Calls;
  for (const Function &F : *M)
    if (F.isDeclaration() && !F.isIntrinsic() && !F.use_empty())
      Calls.push_back(F.getName().str());
  // Code generation waits for each kernel's first launch (ProgramParts.h):
  // the build keeps the prepared module and compiles only the program's
  // variables.
  PreparedProgram P;
  for (const rt::KernelDesc &D : Out.Kernels)
    P.Kernels.push_back(D.Name);
  P.OptDisable = OptDisable;
  // A program with image arguments, barriers or kernels that may stream
  // their stores gets work-group functions compiled for its launches'
  // image formats, local size and streaming stores
  // (JitExecutable::specialize), parts like its kernels' that share its
  // variables.
  P.Specializable = !OptDisable && std::any_of(Out.Kernels.begin(), Out.Kernels.end(), [](auto &D) {
    return D.PrivateFrameSize != 0 || (!D.MayWait && D.GlobalStoreBytes != 0) ||
           D.ConditionArgs != 0 || std::any_of(D.Args.begin(), D.Args.end(), [](auto &A) {
             return A.Kind == rt::ArgKind::Image;
           });
  });
  ProgramParts::makeSplittable(*M);
  P.Module = writeBitcode(*M);
  if (ProgramParts::keepVariables(*M)) {
    P.Variables = JitExecutable::compile(*M, **TM, Log);
    if (P.Variables.empty() || S.Sink.HadError)
      return failure(Log + S.Sink.Text);
  }
  std::optional<CachedBuild> Entry;
  if (Slot)
    Entry = CachedBuild{Out.Kernels,  {},       Out.GlobalVariableSize, Slot->Linked,   {},
                        Slot->Inputs, P.Module, P.OptDisable,           P.Specializable};
  if (Entry && !P.Variables.empty())
    Entry->Objects.push_back(P.Variables);
  std::unique_ptr<JitExecutable> Exe =
      JitExecutable::create(std::move(*JTMB), std::move(P),
                            Slot ? std::optional(kernelObjects(*Slot)) : std::nullopt, Log);
  if (!Exe || !Exe->resolves(Calls, Log) || S.Sink.HadError)
    return failure(Log + S.Sink.Text);
  Out.Exe = std::move(Exe);
  Out.Log = Log + S.Sink.Text;
  if (Entry) {
    Entry->Log = Out.Log;
    Slot->Cache.store(Slot->Key, *Entry);
  }
  return Out;
}

/// Runs Body, a whole compile, build or link; a crash inside it (see
/// CrashRecovery.h) becomes a failure with FailCode.
template <typename Fn> auto recoverable(cl_int FailCode, Fn &&Body) -> decltype(Body()) {
  std::optional<decltype(Body())> Out;
  if (!runRecoverably([&] { Out.emplace(Body()); }))
    return rt::BuildFailure{FailCode, CrashedBuildMessage};
  return std::move(*Out);
}

/// The front-end step every entry point shares: parses Options (BadOptions
/// if they are invalid) and runs Front (OpenCL C or SPIR-V) into
/// S.Context (Fail with the log if it produces nothing).
std::variant<std::unique_ptr<Module>, rt::BuildFailure>
runFrontEnd(Session &S, const std::string &Options, std::optional<BuildOptions> &Opts,
            std::string &Log, cl_int BadOptions, cl_int Fail,
            function_ref<std::unique_ptr<Module>(const BuildOptions &, std::string &)> Front) {
  std::string Why;
  Opts = BuildOptions::parse(Options, Why);
  if (!Opts)
    return rt::BuildFailure{BadOptions, Why};
  std::unique_ptr<Module> M = Front(*Opts, Log);
  if (!M || S.Sink.HadError)
    return rt::BuildFailure{Fail, Log + S.Sink.Text};
  return M;
}

/// clCompileProgram for OpenCL C and SPIR-V alike: the front end (Front)
/// alone, its module as bitcode. Argument names stay only with
/// -cl-kernel-arg-info.
std::variant<rt::ObjectOutput, rt::BuildFailure> compileObject(
    const std::string &Options,
    function_ref<std::unique_ptr<Module>(LLVMContext &, const BuildOptions &, std::string &)>
        Front) {
  FirstCompileGuard Guard;
  return recoverable(
      CL_COMPILE_PROGRAM_FAILURE, [&]() -> std::variant<rt::ObjectOutput, rt::BuildFailure> {
        Session S;
        std::string Log;
        std::optional<BuildOptions> Opts;
        auto M = runFrontEnd(
            S, Options, Opts, Log, CL_INVALID_COMPILER_OPTIONS, CL_COMPILE_PROGRAM_FAILURE,
            [&](const BuildOptions &O, std::string &L) { return Front(*S.Context, O, L); });
        if (auto *Fail = std::get_if<rt::BuildFailure>(&M))
          return std::move(*Fail);
        Module &Object = *std::get<std::unique_ptr<Module>>(M);
        if (!Opts->kernelArgInfo())
          for (Function &F : Object)
            F.setMetadata("kernel_arg_name", nullptr);
        return rt::ObjectOutput{writeBitcode(Object), Log + S.Sink.Text};
      });
}

} // namespace

std::variant<rt::BuildOutput, rt::BuildFailure>
LlvmProgramCompiler::buildSource(const std::string &Source, const std::string &Options) {
  FirstCompileGuard Guard;
  return recoverable(
      CL_BUILD_PROGRAM_FAILURE, [&]() -> std::variant<rt::BuildOutput, rt::BuildFailure> {
        std::optional<CacheSlot> Slot = cacheSlot({"source", Source, Options});
        if (std::optional<rt::BuildOutput> Hit = loadCached(Slot))
          return std::move(*Hit);
        Session S;
        std::string Log;
        std::optional<BuildOptions> Opts;
        std::vector<std::pair<std::string, std::string>> ReadFiles; // path, contents
        auto M = runFrontEnd(S, Options, Opts, Log, CL_INVALID_BUILD_OPTIONS,
                             CL_BUILD_PROGRAM_FAILURE, [&](const BuildOptions &O, std::string &L) {
                               return ClangFrontend::compile(Source, O, *S.Context, L, {},
                                                             &ReadFiles);
                             });
        if (auto *Fail = std::get_if<rt::BuildFailure>(&M))
          return std::move(*Fail);
        rt::FileDigests Inputs;
        for (const auto &[Path, Contents] : ReadFiles)
          Inputs.emplace_back(Path, DiskCache::hash(Contents));
        if (Slot)
          Slot->Inputs = Inputs;
        auto Out = finish(S, std::move(std::get<std::unique_ptr<Module>>(M)), Opts->optDisabled(),
                          Opts->kernelArgInfo(), std::move(Log), CL_BUILD_PROGRAM_FAILURE, Slot);
        if (auto *Ok = std::get_if<rt::BuildOutput>(&Out))
          Ok->Inputs = std::move(Inputs);
        return Out;
      });
}

std::variant<rt::ObjectOutput, rt::BuildFailure>
LlvmProgramCompiler::compileSource(const std::string &Source, const std::string &Options,
                                   const std::vector<rt::EmbeddedHeader> &Headers) {
  return compileObject(Options, [&](LLVMContext &C, const BuildOptions &O, std::string &L) {
    return ClangFrontend::compile(Source, O, C, L, Headers);
  });
}

std::string LlvmProgramCompiler::checkIL(const std::vector<unsigned char> &IL) {
  return SpirvFrontend::validate(IL);
}

std::map<uint32_t, uint32_t>
LlvmProgramCompiler::ilSpecConstants(const std::vector<unsigned char> &IL) {
  return SpirvFrontend::specConstants(IL);
}

std::variant<rt::BuildOutput, rt::BuildFailure>
LlvmProgramCompiler::buildIL(const rt::IntermediateLanguage &IL, const std::string &Options) {
  FirstCompileGuard Guard;
  return recoverable(
      CL_BUILD_PROGRAM_FAILURE, [&]() -> std::variant<rt::BuildOutput, rt::BuildFailure> {
        std::string SpecValues;
        for (const auto &[Id, Value] : IL.SpecValues)
          SpecValues += std::to_string(Id) + "=" + std::to_string(Value) + ";";
        std::optional<CacheSlot> Slot = cacheSlot(
            {"spirv",
             std::string_view(reinterpret_cast<const char *>(IL.Bytes.data()), IL.Bytes.size()),
             SpecValues, Options});
        if (std::optional<rt::BuildOutput> Hit = loadCached(Slot))
          return std::move(*Hit);
        Session S;
        std::string Log;
        std::optional<BuildOptions> Opts;
        auto M =
            runFrontEnd(S, Options, Opts, Log, CL_INVALID_BUILD_OPTIONS, CL_BUILD_PROGRAM_FAILURE,
                        [&](const BuildOptions &, std::string &L) {
                          return SpirvFrontend::translate(IL.Bytes, IL.SpecValues, *S.Context, L);
                        });
        if (auto *Fail = std::get_if<rt::BuildFailure>(&M))
          return std::move(*Fail);
        std::unique_ptr<Module> &Program = std::get<std::unique_ptr<Module>>(M);
        // SPIR-V has no word for it: the build option marks every kernel as
        // clang marks OpenCL C kernels built with it.
        if (Opts->uniformWorkGroupSize())
          for (Function &F : *Program)
            if (F.getCallingConv() == CallingConv::SPIR_KERNEL)
              F.addFnAttr("uniform-work-group-size", "true");
        std::vector<unsigned char> Translated = writeBitcode(*Program);
        if (Slot)
          Slot->Linked = Translated;
        auto Out = finish(S, std::move(Program), Opts->optDisabled(), Opts->kernelArgInfo(),
                          std::move(Log), CL_BUILD_PROGRAM_FAILURE, Slot);
        if (auto *Ok = std::get_if<rt::BuildOutput>(&Out))
          Ok->Linked = std::move(Translated);
        return Out;
      });
}

std::variant<rt::ObjectOutput, rt::BuildFailure>
LlvmProgramCompiler::compileIL(const rt::IntermediateLanguage &IL, const std::string &Options) {
  return compileObject(Options, [&](LLVMContext &C, const BuildOptions &, std::string &L) {
    return SpirvFrontend::translate(IL.Bytes, IL.SpecValues, C, L);
  });
}

std::variant<rt::BuildOutput, rt::ObjectOutput, rt::BuildFailure>
LlvmProgramCompiler::link(const std::vector<std::vector<unsigned char>> &Objects,
                          const std::string &Options) {
  FirstCompileGuard Guard;
  std::string Why;
  std::optional<BuildOptions> Opts = BuildOptions::parseLink(Options, Why);
  if (!Opts)
    return rt::BuildFailure{CL_INVALID_LINKER_OPTIONS, Why};
  if (Objects.empty())
    return rt::BuildFailure{CL_LINK_PROGRAM_FAILURE, "error: nothing to link\n"};
  return recoverable(
      CL_LINK_PROGRAM_FAILURE,
      [&]() -> std::variant<rt::BuildOutput, rt::ObjectOutput, rt::BuildFailure> {
        Session S;
        std::unique_ptr<Module> Linked;
        for (size_t I = 0; I < Objects.size(); ++I) {
          StringRef Bytes(reinterpret_cast<const char *>(Objects[I].data()), Objects[I].size());
          Expected<std::unique_ptr<Module>> M =
              parseBitcodeFile(MemoryBufferRef(Bytes, "object" + std::to_string(I)), *S.Context);
          if (!M)
            return rt::BuildFailure{CL_LINK_PROGRAM_FAILURE, "error: input " + std::to_string(I) +
                                                                 " is not a compiled object: " +
                                                                 toString(M.takeError()) + "\n"};
          if (!Linked) {
            Linked = std::move(*M);
            continue;
          }
          // Two definitions of one kernel or function are an error the linker
          // reports through the diagnostic handler ("symbol multiply defined").
          if (Linker::linkModules(*Linked, std::move(*M)) || S.Sink.HadError)
            return rt::BuildFailure{CL_LINK_PROGRAM_FAILURE, S.Sink.Text +
                                                                 "error: cannot link input " +
                                                                 std::to_string(I) + "\n"};
        }
        if (Opts->createLibrary())
          return rt::ObjectOutput{writeBitcode(*Linked), S.Sink.Text};
        // An executable needs every function the program declares. Builtins are
        // mangled (_Z...) or reserved (__...) and come later from the builtin
        // library; anything else left undeclared would only fail in the JIT with
        // a message that names no function.
        std::string Undefined;
        for (const Function &F : *Linked)
          if (F.isDeclaration() && !F.isIntrinsic() && !F.use_empty() &&
              !F.getName().startswith("_") && F.getName() != "printf")
            Undefined += "error: function '" + F.getName().str() +
                         "' is called but no linked program defines it\n";
        if (!Undefined.empty())
          return rt::BuildFailure{CL_LINK_PROGRAM_FAILURE, S.Sink.Text + Undefined};
        std::vector<unsigned char> LinkedBytes = writeBitcode(*Linked);
        auto Out = finish(S, std::move(Linked), /*OptDisable=*/false, /*KernelArgInfo=*/true, "",
                          CL_LINK_PROGRAM_FAILURE);
        if (auto *Ok = std::get_if<rt::BuildOutput>(&Out)) {
          Ok->Linked = std::move(LinkedBytes);
          return std::move(*Ok);
        }
        return std::get<rt::BuildFailure>(Out);
      });
}

bool LlvmProgramCompiler::inputsUnchanged(const rt::FileDigests &Inputs) {
  for (const auto &[Path, Digest] : Inputs)
    if (DiskCache::fileHash(Path) != Digest)
      return false;
  return true;
}

rt::CodeTarget LlvmProgramCompiler::target() {
  rt::CodeTarget T;
  std::string Why;
  std::optional<orc::JITTargetMachineBuilder> JTMB = HostTarget::builder(T.Refused);
  if (!JTMB) // WEFT_CPU refused: the host's registers, which is what runs
    JTMB = HostTarget::builderFor("", Why);
  std::unique_ptr<TargetMachine> TM;
  if (JTMB) {
    if (Expected<std::unique_ptr<TargetMachine>> Made = JTMB->createTargetMachine())
      TM = std::move(*Made);
    else
      Why = toString(Made.takeError());
  }
  if (!TM) {
    T.Refused += (T.Refused.empty() ? "" : "; ") + Why;
    T.IsaName = "sse2"; // what every x86-64 CPU has
    return T;
  }
  const MCSubtargetInfo &STI = *TM->getMCSubtargetInfo();
  T.Cpu = TM->getTargetCPU().str();
  if (STI.checkFeatures("+avx512f,+avx512bw")) {
    T.SimdBytes = 64;
    T.IsaName = "avx512";
  } else if (STI.checkFeatures("+avx")) {
    T.SimdBytes = 32;
    T.IsaName = STI.checkFeatures("+avx2") ? "avx2" : "avx";
  } else {
    T.IsaName = STI.checkFeatures("+sse4.2") ? "sse4.2" : "sse2";
  }
  T.Int8DotProductInstructions = DotProductPass::appliesTo(STI);
  return T;
}

} // namespace weft::compiler
