// ORC JIT of a built program. One LLJIT per program keeps programs
// independent (release = destroy the JIT); symbols the program does not
// define resolve against the host process, libm (sinf, ...) and libmvec
// (_ZGVdN8v_sinf, ...). The JIT links object code, not IR: a fresh build
// generates it (compile), a cached build reads it from the disk cache, and
// both take the same path from there.
#include "compiler/JitExecutable.h"

#include "compiler/VectorMath.h"
#include "compiler/WorkItemFunction.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/Support/MemoryBuffer.h>

using namespace llvm;

namespace weft::compiler {

std::unique_ptr<JitExecutable> JitExecutable::create(orc::JITTargetMachineBuilder JTMB,
                                                     ArrayRef<unsigned char> Object,
                                                     const std::vector<std::string> &KernelNames,
                                                     std::string &Log) {
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
  auto Generator = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      Exe->Jit->getDataLayout().getGlobalPrefix());
  if (!Generator) {
    Log += "error: cannot search the host process: " + toString(Generator.takeError()) + "\n";
    return nullptr;
  }
  Exe->Jit->getMainJITDylib().addGenerator(std::move(*Generator));
  // libm's functions (the builtins call sinf, pow, ...) must resolve even
  // when the application does not link libm: the ICD loader opens us
  // RTLD_LOCAL, and libm loaded as our dependency is then invisible to the
  // process-wide search above.
  auto Libm = orc::DynamicLibrarySearchGenerator::Load("libm.so.6",
                                                       Exe->Jit->getDataLayout().getGlobalPrefix());
  if (!Libm) {
    Log += "error: cannot load libm: " + toString(Libm.takeError()) + "\n";
    return nullptr;
  }
  Exe->Jit->getMainJITDylib().addGenerator(std::move(*Libm));
  // The vector forms of libm functions the vectorized code calls.
  if (VectorMath::available()) {
    auto Libmvec = orc::DynamicLibrarySearchGenerator::Load(
        VectorMath::LibraryName, Exe->Jit->getDataLayout().getGlobalPrefix());
    if (!Libmvec) {
      Log += "error: cannot load libmvec: " + toString(Libmvec.takeError()) + "\n";
      return nullptr;
    }
    Exe->Jit->getMainJITDylib().addGenerator(std::move(*Libmvec));
  }
  auto Buffer = MemoryBuffer::getMemBufferCopy(
      StringRef(reinterpret_cast<const char *>(Object.data()), Object.size()), "weft-program");
  if (Error E = Exe->Jit->addObjectFile(std::move(Buffer))) {
    Log += "error: cannot add the program to the JIT: " + toString(std::move(E)) + "\n";
    return nullptr;
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
