// ORC JIT of a built program. One LLJIT per program keeps programs
// independent (release = destroy the JIT); symbols the program does not
// define resolve against the host process, libm (sinf, ...), libmvec
// (_ZGVdN8v_sinf, ...) and SLEEF (Sleef_sind4_u10avx2, ...), but for fmod
// and fmodf, which are Weft's (ExactFmod.h). The JIT links
// object code, not IR: a fresh build generates it (compile), a cached build
// reads it from the disk cache, and both take the same path from there.
#include "compiler/JitExecutable.h"

#include "compiler/CrashRecovery.h"
#include "compiler/ExactFmod.h"
#include "compiler/ImageDescriptorPass.h"
#include "compiler/KernelPipeline.h"
#include "compiler/LocalSizeSpecialization.h"
#include "compiler/VectorMath.h"
#include "compiler/WorkItemFunction.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>

#include <sleef.h>

#include <cstdlib>

using namespace llvm;

namespace weft::compiler {

std::unique_ptr<JitExecutable>
JitExecutable::create(orc::JITTargetMachineBuilder JTMB,
                      const std::vector<std::vector<unsigned char>> &Objects,
                      const std::vector<std::string> &KernelNames, std::string &Log,
                      std::vector<unsigned char> PreparedIR) {
  auto Exe = std::unique_ptr<JitExecutable>(new JitExecutable());
  Exe->Target = std::make_unique<orc::JITTargetMachineBuilder>(JTMB);
  Exe->PreparedIR = std::move(PreparedIR);
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
  for (const std::vector<unsigned char> &Object : Objects) {
    auto Buffer = MemoryBuffer::getMemBufferCopy(
        StringRef(reinterpret_cast<const char *>(Object.data()), Object.size()), "weft-program");
    if (Error E = Exe->Jit->addObjectFile(std::move(Buffer))) {
      Log += "error: cannot add the program to the JIT: " + toString(std::move(E)) + "\n";
      return nullptr;
    }
  }
  for (const std::string &Name : KernelNames) {
    auto Addr = Exe->Jit->lookup(std::string(wi::WorkGroupPrefix) + Name);
    if (!Addr) {
      std::lock_guard<std::mutex> Lock(Exe->SessionErrors->Mutex);
      Log += Exe->SessionErrors->Text + "error: cannot compile kernel '" + Name +
             "': " + toString(Addr.takeError()) + "\n";
      return nullptr;
    }
    Exe->Functions[Name] = Addr->toPtr<rt::WorkGroupFn>();
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

rt::WorkGroupFn JitExecutable::lookup(const std::string &KernelName) const {
  auto It = Functions.find(KernelName);
  return It == Functions.end() ? nullptr : It->second;
}

rt::WorkGroupFn JitExecutable::specialize(const std::string &KernelName,
                                          const rt::Specialization &S) {
  if (PreparedIR.empty() || S.empty())
    return nullptr;
  std::lock_guard<std::mutex> Lock(SpecializeMutex);
  return specializeLocked(KernelName, S);
}

rt::WorkGroupFn JitExecutable::specializeLocked(const std::string &KernelName,
                                                const rt::Specialization &S) {
  SpecializedFn &Entry = Specialized[{KernelName, S}];
  if (Entry.Compiled)
    return Entry.Fn;
  // (WEFT_NO_LOCAL_SIZE_SPECIALIZATION=1 turns local sizes off, to
  // measure them.)
  static const bool LocalSizes = !std::getenv("WEFT_NO_LOCAL_SIZE_SPECIALIZATION");
  if (S.LocalSize[0] != 0 && (!LocalSizes || ++Entry.Asked < HotLaunches)) {
    rt::Specialization FormatsOnly{S.Formats, {}};
    return FormatsOnly.empty() ? nullptr : specializeLocked(KernelName, FormatsOnly);
  }
  // A compiler crash loses only the specialization (kept as nullptr, so not
  // tried again): the generic function serves.
  rt::WorkGroupFn Fn = nullptr;
  if (!runRecoverably([&] { Fn = compileSpecialized(KernelName, S); }))
    Fn = nullptr;
  Entry.Compiled = true;
  Entry.Fn = Fn;
  return Fn;
}

rt::WorkGroupFn JitExecutable::compileSpecialized(const std::string &KernelName,
                                                  const rt::Specialization &S) {
  LLVMContext Context;
  auto Buffer = MemoryBuffer::getMemBuffer(
      StringRef(reinterpret_cast<const char *>(PreparedIR.data()), PreparedIR.size()),
      "weft-prepared", /*RequiresNullTerminator=*/false);
  Expected<std::unique_ptr<Module>> M = parseBitcodeFile(*Buffer, Context);
  if (!M) {
    consumeError(M.takeError());
    return nullptr;
  }
  const std::string Name = std::string(wi::WorkGroupPrefix) + KernelName;
  Function *WG = (*M)->getFunction(Name);
  if (!WG || WG->isDeclaration())
    return nullptr;
  // Only this work-group function is defined here: the other kernels and
  // the program's mutable program-scope variables are the program's
  // object's, already in the JIT, and named from here. Constants (the
  // program's __constant data, the built-ins' tables) are copied: a
  // program built in parts (ParallelBackend) has a private copy of them in
  // each part and exports none.
  for (Function &F : **M)
    if (&F != WG && !F.isDeclaration() && !F.hasLocalLinkage())
      F.deleteBody();
  for (GlobalVariable &G : (*M)->globals()) {
    if (G.isDeclaration() || G.hasLocalLinkage())
      continue;
    if (G.isConstant()) {
      G.setLinkage(GlobalValue::InternalLinkage);
      G.setComdat(nullptr);
      continue;
    }
    G.setInitializer(nullptr);
    G.setLinkage(GlobalValue::ExternalLinkage);
  }
  // What only the other kernels called goes first: specializeLocalSize
  // then sees every internal function called from WG alone.
  {
    ModulePassManager MPM;
    MPM.addPass(GlobalDCEPass());
    KernelPipeline::runModulePasses(**M, MPM);
  }
  ImageDescriptorPass::specialize(*WG, S.Formats);
  if (S.LocalSize[0] != 0)
    specializeLocalSize(*WG, S.LocalSize);
  const std::string SpecializedName = Name + ".specialized" + std::to_string(++Compiles);
  WG->setName(SpecializedName);
  auto TM = Target->createTargetMachine();
  if (!TM) {
    consumeError(TM.takeError());
    return nullptr;
  }
  // WEFT_DUMP_IR=pre and =1: the module as O3 gets it and as the JIT does,
  // as for builds (KernelPipeline.cpp).
  const char *Dump = std::getenv("WEFT_DUMP_IR");
  if (Dump && StringRef(Dump) == "pre")
    (*M)->print(errs(), nullptr);
  KernelPipeline::optimize(**M, **TM);
  std::string Log;
  if (!KernelPipeline::verifyOptimized(**M, Log))
    return nullptr;
  if (Dump && StringRef(Dump) == "1")
    (*M)->print(errs(), nullptr);
  std::vector<unsigned char> Object = compile(**M, **TM, Log);
  if (Object.empty())
    return nullptr;
  auto ObjectBuffer = MemoryBuffer::getMemBufferCopy(
      StringRef(reinterpret_cast<const char *>(Object.data()), Object.size()), SpecializedName);
  if (Error E = Jit->addObjectFile(std::move(ObjectBuffer))) {
    consumeError(std::move(E));
    return nullptr;
  }
  auto Addr = Jit->lookup(SpecializedName);
  if (!Addr) {
    consumeError(Addr.takeError());
    return nullptr;
  }
  return Addr->toPtr<rt::WorkGroupFn>();
}

} // namespace weft::compiler
