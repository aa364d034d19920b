// ORC JIT of a built program. One LLJIT per program keeps programs
// independent (release = destroy the JIT); symbols the program does not
// define resolve against the host process, libm (sinf, ...), libmvec
// (_ZGVdN8v_sinf, ...) and SLEEF (Sleef_sind4_u10avx2, ...), but for fmod
// and fmodf, which are Weft's (ExactFmod.h). The JIT links
// object code, not IR: a fresh build generates it (compile), a cached build
// reads it from the disk cache, and both take the same path from there.
#include "compiler/JitExecutable.h"

#include "compiler/ExactFmod.h"
#include "compiler/VectorMath.h"
#include "compiler/WorkItemFunction.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/Support/MemoryBuffer.h>

#include <sleef.h>

using namespace llvm;

namespace weft::compiler {

std::unique_ptr<JitExecutable>
JitExecutable::create(orc::JITTargetMachineBuilder JTMB,
                      const std::vector<std::vector<unsigned char>> &Objects,
                      const std::vector<std::string> &KernelNames, std::string &Log) {
  auto Exe = std::unique_ptr<JitExecutable>(new JitExecutable());
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

} // namespace weft::compiler
