// ORC JIT of a built program. One LLJIT per program keeps programs
// independent (release = destroy the JIT); symbols the program does not
// define resolve against the host process, libm (sinf, ...), libmvec
// (_ZGVdN8v_sinf, ...) and SLEEF (Sleef_sind4_u10avx2, ...), but for fmod
// and fmodf, which are Weft's (ExactFmod.h). The JIT links object code, not
// IR: the variables part comes with the build (or the disk cache), and a
// kernel's part is compiled at its first lookup, or read from the disk
// cache when an earlier process compiled it (ProgramParts.h).
#include "compiler/codegen/JitExecutable.h"

#include "compiler/CompilerSession.h"
#include "compiler/CrashRecovery.h"
#include "compiler/KernelPipeline.h"
#include "compiler/codegen/ProgramParts.h"
#include "compiler/specialize/ArgumentSpecialization.h"
#include "compiler/specialize/ImageDescriptorPass.h"
#include "compiler/specialize/LocalSizeSpecialization.h"
#include "compiler/specialize/StreamingStores.h"
#include "compiler/vectorize/ExactFmod.h"
#include "compiler/vectorize/VectorMath.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "runtime/TsanHandOff.h"

#include <sleef.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdlib>

using namespace llvm;

namespace weft::compiler {

std::unique_ptr<JitExecutable> JitExecutable::create(orc::JITTargetMachineBuilder JTMB,
                                                     PreparedProgram P,
                                                     std::optional<KernelObjectCache> Cache,
                                                     std::string &Log) {
  auto Exe = std::unique_ptr<JitExecutable>(new JitExecutable());
  Exe->Target = std::make_unique<orc::JITTargetMachineBuilder>(JTMB);
  Exe->Program = std::move(P);
  Exe->Cache = std::move(Cache);
  auto J = orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(JTMB)).create();
  if (!J) {
    Log += "error: cannot create the JIT: " + toString(J.takeError()) + "\n";
    return nullptr;
  }
  Exe->Jit = std::move(*J);
  // Session errors (a symbol no one defines) belong in the build log, not
  // on the host's stderr where ORC's default reporter puts them.
  Exe->Jit->getExecutionSession().setErrorReporter([Errors = Exe->SessionErrors](Error E) {
    std::lock_guard<std::mutex> Lock(Errors->Mutex);
    Errors->Text += "error: " + toString(std::move(E)) + "\n";
  });
  // Adds a symbol search to the program's JITDylib; What names it in the log.
  auto addSearch = [&](Expected<std::unique_ptr<orc::DynamicLibrarySearchGenerator>> Generator,
                       const char *What) {
    if (!Generator) {
      Log += std::string("error: cannot ") + What + ": " + toString(Generator.takeError()) + "\n";
      return false;
    }
    Exe->Jit->getMainJITDylib().addGenerator(std::move(*Generator));
    return true;
  };
  const char Prefix = Exe->Jit->getDataLayout().getGlobalPrefix();
  if (!addSearch(orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(Prefix),
                 "search the host process"))
    return nullptr;
  // libm's functions (the builtins call sinf, pow, ...) must resolve even
  // when the application does not link libm: the ICD loader opens us
  // RTLD_LOCAL, and libm loaded as our dependency is then invisible to the
  // process-wide search above.
  if (!addSearch(orc::DynamicLibrarySearchGenerator::Load("libm.so.6", Prefix), "load libm"))
    return nullptr;
  // The vector forms of libm functions the vectorized code calls.
  if (VectorMath::available() &&
      !addSearch(orc::DynamicLibrarySearchGenerator::Load(VectorMath::LibraryName, Prefix),
                 "load libmvec"))
    return nullptr;
  // SLEEF's scalar lgamma, which the builtins call (Math.cl), defined from
  // Weft's own link to SLEEF, and SLEEF's vector forms, from the copy of
  // the library that link loaded. The fmod and fmodf calls frem becomes are
  // Weft's (ExactFmod.h): definitions come before every search above.
  orc::ExecutionSession &ES = Exe->Jit->getExecutionSession();
  if (Error E = Exe->Jit->getMainJITDylib().define(orc::absoluteSymbols(
          {{ES.intern(VectorMath::SleefScalarLgamma),
            JITEvaluatedSymbol::fromPointer(&Sleef_lgamma_u10)},
           {ES.intern("fmod"), JITEvaluatedSymbol::fromPointer(&ExactFmod::fmod)},
           {ES.intern("fmodf"), JITEvaluatedSymbol::fromPointer(&ExactFmod::fmodf)}}))) {
    Log += "error: cannot define the host functions kernels call: " + toString(std::move(E)) + "\n";
    return nullptr;
  }
  if (!addSearch(orc::DynamicLibrarySearchGenerator::Load(VectorMath::SleefLibraryName, Prefix),
                 "load SLEEF"))
    return nullptr;
  if (!Exe->Program.Variables.empty()) {
    auto Buffer = MemoryBuffer::getMemBufferCopy(
        StringRef(reinterpret_cast<const char *>(Exe->Program.Variables.data()),
                  Exe->Program.Variables.size()),
        "weft-variables");
    if (Error E = Exe->Jit->addObjectFile(std::move(Buffer))) {
      Log +=
          "error: cannot add the program's variables to the JIT: " + toString(std::move(E)) + "\n";
      return nullptr;
    }
  }
  return Exe;
}

std::vector<unsigned char> JitExecutable::compile(Module &M, TargetMachine &TM, std::string &Log) {
  orc::SimpleCompiler Compiler(TM);
  Expected<std::unique_ptr<MemoryBuffer>> Object = Compiler(M);
  if (!Object) {
    Log += "error: code generation failed: " + toString(Object.takeError()) + "\n";
    return {};
  }
  StringRef Bytes = (*Object)->getBuffer();
  return std::vector<unsigned char>(Bytes.begin(), Bytes.end());
}

bool JitExecutable::resolves(const std::vector<std::string> &Names, std::string &Log) {
  bool All = true;
  for (const std::string &Name : Names)
    if (auto Addr = Jit->lookup(Name); !Addr) {
      consumeError(Addr.takeError());
      Log += "error: function '" + Name + "' is called but the program does not define it\n";
      All = false;
    }
  // The session's reports of the same misses say nothing more.
  std::lock_guard<std::mutex> Lock(SessionErrors->Mutex);
  SessionErrors->Text.clear();
  return All;
}

namespace {

/// What lookup() returns for a kernel whose compile gave Fn (nullptr: it
/// failed, for the reason in Log).
rt::Result<rt::WorkGroupFn> outcome(const std::string &KernelName, rt::WorkGroupFn Fn,
                                    const std::string &Log) {
  if (Fn)
    return Fn;
  return rt::makeError(CL_INVALID_PROGRAM_EXECUTABLE,
                       "kernel " + KernelName + " could not be compiled:\n" + Log);
}

} // namespace

bool JitExecutable::defines(const std::string &KernelName) const {
  return std::find(Program.Kernels.begin(), Program.Kernels.end(), KernelName) !=
         Program.Kernels.end();
}

rt::Result<rt::WorkGroupFn> JitExecutable::lookup(const std::string &KernelName) {
  if (!defines(KernelName))
    return rt::makeError(CL_INVALID_KERNEL_NAME, "the program has no kernel " + KernelName);
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Functions.count(KernelName))
    compileLocked({KernelName});
  return Functions.at(KernelName);
}

rt::WorkGroupFn JitExecutable::specialize(const std::string &KernelName,
                                          const rt::Specialization &S) {
  if (!Program.Specializable || S.empty() || !defines(KernelName))
    return nullptr;
  std::lock_guard<std::mutex> Lock(Mutex);
  return specializeLocked(KernelName, S);
}

rt::WorkGroupFn JitExecutable::specializeLocked(const std::string &KernelName,
                                                const rt::Specialization &S) {
  // (WEFT_NO_LOCAL_SIZE_SPECIALIZATION=1 turns local sizes off, to
  // measure them.)
  static const bool LocalSizes = !std::getenv("WEFT_NO_LOCAL_SIZE_SPECIALIZATION");
  if (S.LocalSize[0] != 0 && !LocalSizes) {
    rt::Specialization Without = S;
    Without.LocalSize = {0, 0, 0};
    Without.SmallIds = false;
    return Without.empty() ? nullptr : specializeLocked(KernelName, Without);
  }
  SpecializedFn &Entry = Specialized[{KernelName, S}];
  if (Entry.Compiled)
    return Entry.Fn;
  // A local size, streaming stores or argument values are compiled for
  // only once the launches that ask show the kernel to be hot.
  if ((S.LocalSize[0] != 0 || S.Streaming || !S.Arguments.empty()) && ++Entry.Asked < HotLaunches) {
    rt::Specialization FormatsOnly{S.Formats, {}};
    return FormatsOnly.empty() ? nullptr : specializeLocked(KernelName, FormatsOnly);
  }
  // A compiler crash loses only the specialization (kept as nullptr, so not
  // tried again): the generic function serves.
  rt::WorkGroupFn Fn = nullptr;
  std::string Log;
  {
    FirstCompileGuard Guard;
    if (!runRecoverably([&] { Fn = compileSpecialized(KernelName, S, Log); }))
      Fn = nullptr;
    if (Fn)
      Guard.compiledCode();
  }
  Entry.Compiled = true;
  Entry.Fn = Fn;
  return Fn;
}

std::string JitExecutable::cacheKey(const std::string &KernelName) {
  if (ModuleDigest.empty())
    ModuleDigest = DiskCache::hash(std::string_view(
        reinterpret_cast<const char *>(Program.Module.data()), Program.Module.size()));
  return DiskCache::key(Cache->Target,
                        {"kernel", ModuleDigest, Program.OptDisable ? "-O0" : "", KernelName});
}

rt::WorkGroupFn JitExecutable::addObject(const std::vector<unsigned char> &Object,
                                         const std::string &Symbol, std::string &Log) {
  auto Buffer = MemoryBuffer::getMemBufferCopy(
      StringRef(reinterpret_cast<const char *>(Object.data()), Object.size()), Symbol);
  if (Error E = Jit->addObjectFile(std::move(Buffer))) {
    Log += "error: cannot add the kernel to the JIT: " + toString(std::move(E)) + "\n";
    return nullptr;
  }
  auto Addr = Jit->lookup(Symbol);
  if (!Addr) {
    std::lock_guard<std::mutex> Lock(SessionErrors->Mutex);
    Log += SessionErrors->Text + "error: " + toString(Addr.takeError()) + "\n";
    return nullptr;
  }
  return Addr->toPtr<rt::WorkGroupFn>();
}

rt::WorkGroupFn JitExecutable::compileSpecialized(const std::string &KernelName,
                                                  const rt::Specialization &S, std::string &Log) {
  const std::string Symbol =
      std::string(wi::WorkGroupPrefix) + KernelName + ".specialized" + std::to_string(++Compiles);
  std::vector<unsigned char> Object = objectFor(KernelName, S, Symbol, Log);
  return Object.empty() ? nullptr : addObject(Object, Symbol, Log);
}

std::vector<unsigned char> JitExecutable::objectFor(const std::string &KernelName,
                                                    const rt::Specialization &S,
                                                    const std::string &Symbol, std::string &Log,
                                                    bool *Generated) {
  const std::string Name = std::string(wi::WorkGroupPrefix) + KernelName;
  const std::string Key = S.empty() && Cache ? cacheKey(KernelName) : "";
  if (!Key.empty())
    if (std::optional<CachedBuild> Hit = Cache->Cache.load(Key); Hit && Hit->Objects.size() == 1)
      return std::move(Hit->Objects[0]);

  // LLVM's diagnostics (a code generation error) go to the session's sink,
  // not to the default handler, which would exit the process.
  Session Compile;
  auto Buffer = MemoryBuffer::getMemBuffer(
      StringRef(reinterpret_cast<const char *>(Program.Module.data()), Program.Module.size()),
      "weft-prepared", /*RequiresNullTerminator=*/false);
  Expected<std::unique_ptr<Module>> M = parseBitcodeFile(*Buffer, *Compile.Context);
  if (!M) {
    Log += "error: internal compiler error: cannot read the prepared program: " +
           toString(M.takeError()) + "\n";
    return {};
  }
  // What only the other kernels called goes first: specializeLocalSize
  // then sees every internal function called from this one alone.
  if (!ProgramParts::keepKernel(**M, Name)) {
    Log += "error: internal compiler error: the program has no work-group function " + Name + "\n";
    return {};
  }
  Function *WG = (*M)->getFunction(Name);
  if (!S.empty()) {
    ImageDescriptorPass::specialize(*WG, S.Formats);
    if (S.LocalSize[0] != 0) {
      specializeLocalSize(*WG, S.LocalSize);
      if (S.SmallIds)
        boundGlobalIds(*WG, S.LocalSize, rt::Specialization::SmallIdLimit);
    }
    if (S.Streaming)
      specializeStreamingStores(*WG, S.ItemAlign, S.AlignedArgs, rt::Specialization::PointerAlign);
    if (!S.Arguments.empty())
      specializeArguments(*WG, S.Arguments);
  }
  WG->setName(Symbol);
  auto TM = Target->createTargetMachine();
  if (!TM) {
    Log += "error: cannot create a target machine: " + toString(TM.takeError()) + "\n";
    return {};
  }
  // WEFT_DUMP_IR=pre and =1: the module as O3 gets it and as code
  // generation does, for compiler work (KernelPipeline.cpp).
  const char *Dump = std::getenv("WEFT_DUMP_IR");
  if (Dump && StringRef(Dump) == "pre")
    (*M)->print(errs(), nullptr);
  if (!Program.OptDisable)
    KernelPipeline::optimize(**M, **TM);
  if (!KernelPipeline::verifyOptimized(**M, Log))
    return {};
  if (Dump && *Dump && *Dump != '0' && StringRef(Dump) != "pre")
    (*M)->print(errs(), nullptr);
  std::vector<unsigned char> Object = compile(**M, **TM, Log);
  Log += Compile.Sink.Text;
  if (Compile.Sink.HadError)
    return {};
  if (Generated)
    *Generated = !Object.empty();
  if (!Object.empty() && !Key.empty()) {
    CachedBuild Entry;
    Entry.Objects.push_back(Object);
    Cache->Cache.store(Key, Entry);
  }
  return Object;
}

void JitExecutable::compileAhead(const std::vector<std::string> &KernelNames) {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::vector<std::string> Todo;
  for (const std::string &Name : KernelNames)
    if (defines(Name) && !Functions.count(Name) &&
        std::find(Todo.begin(), Todo.end(), Name) == Todo.end())
      Todo.push_back(Name);
  // One kernel is compiled as well at its first launch.
  if (Todo.size() >= 2)
    compileLocked(Todo);
}

void JitExecutable::compileLocked(const std::vector<std::string> &KernelNames) {
  if (Cache)
    cacheKey(KernelNames[0]); // the module's digest, before any thread reads it
  struct Part {
    std::vector<unsigned char> Object;
    std::string Log;
    bool Generated = false;
  };
  std::vector<Part> Parts(KernelNames.size());
  auto symbol = [&](size_t I) { return std::string(wi::WorkGroupPrefix) + KernelNames[I]; };
  // A compiler crash fails that kernel alone, for good.
  auto compilePart = [&](size_t I) {
    Part &P = Parts[I];
    if (!runRecoverably(
            [&] { P.Object = objectFor(KernelNames[I], {}, symbol(I), P.Log, &P.Generated); })) {
      P.Object.clear();
      P.Log = CrashedBuildMessage;
    }
  };
  {
    FirstCompileGuard Guard;
    size_t First = 0;
    // The process's first compile runs alone (FirstCompileGuard), and so
    // does a single kernel, on this thread.
    if (Guard.alone() || Parts.size() == 1) {
      compilePart(First++);
      if (Parts[0].Generated && !Program.OptDisable)
        Guard.compiledCode();
    }
    if (First < Parts.size()) {
      // Each part starts after the parts before were read and ends before
      // its object is (for TSan, which cannot see TBB's own
      // synchronization; see TsanHandOff.h).
      auto Compile = [&](const tbb::blocked_range<size_t> &R) {
        for (size_t I = R.begin(); I != R.end(); ++I)
          compilePart(I);
      };
      tbb::parallel_for(tbb::blocked_range<size_t>(First, Parts.size(), 1),
                        tsan::HandedOff(Compile));
      tsan::acquire(&Compile);
    }
  }
  for (size_t I = 0; I < Parts.size(); ++I) {
    Part &P = Parts[I];
    rt::WorkGroupFn Fn = nullptr;
    if (!P.Object.empty() && !runRecoverably([&] { Fn = addObject(P.Object, symbol(I), P.Log); })) {
      Fn = nullptr;
      P.Log = CrashedBuildMessage;
    }
    Functions.emplace(KernelNames[I], outcome(KernelNames[I], Fn, P.Log));
  }
}

} // namespace weft::compiler
