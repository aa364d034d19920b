// JitExecutable: the machine code of one program — an ORC LLJIT owning the
// compiled module, with the work-group function of every kernel looked up
// (and so compiled) eagerly when the program is built; and, for a program
// with image arguments or barriers, copies of a work-group function
// compiled for what a launch fixes (its images' formats, its local size),
// made on demand from the module as the kernel pipeline prepared it.
#pragma once

#include "runtime/ProgramCompiler.h"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace weft::compiler {

class JitExecutable : public rt::Executable {
public:
  /// Links Objects (relocatable objects for the host, from compile() or
  /// the disk cache: the parts of one program, ParallelBackend) and finds
  /// the work-group function of every kernel; returns nullptr with a
  /// message in Log on failure.
  /// PreparedIR is the bitcode of the program as the kernel pipeline
  /// prepared it (before O3), for specialize(); empty if it has none.
  static std::unique_ptr<JitExecutable>
  create(llvm::orc::JITTargetMachineBuilder JTMB,
         const std::vector<std::vector<unsigned char>> &Objects,
         const std::vector<std::string> &KernelNames, std::string &Log,
         std::vector<unsigned char> PreparedIR = {});
  /// Generates the object code of M with TM; empty with a message in Log
  /// on failure.
  static std::vector<unsigned char> compile(llvm::Module &M, llvm::TargetMachine &TM,
                                            std::string &Log);

  rt::WorkGroupFn lookup(const std::string &KernelName) const override;
  /// Image formats are compiled for at the first launch that asks. A
  /// local size is compiled for at the HotLaunches-th launch that asks for
  /// the same specialization: a compile costs tens of milliseconds, which
  /// a kernel launched once or twice per shape (the CTS's many sizes) would
  /// not earn back; until then the formats alone (or nothing) serve.
  rt::WorkGroupFn specialize(const std::string &KernelName, const rt::Specialization &S) override;
  static constexpr unsigned HotLaunches = 3;

private:
  /// specialize() with SpecializeMutex held.
  rt::WorkGroupFn specializeLocked(const std::string &KernelName, const rt::Specialization &S);
  /// One specialization: compiles it and adds it to the JIT; nullptr if it
  /// cannot be made. Mutex held.
  rt::WorkGroupFn compileSpecialized(const std::string &KernelName, const rt::Specialization &S);

  struct ErrorText {
    std::mutex Mutex;
    std::string Text;
  };
  /// What the session reported; shared with its error reporter.
  std::shared_ptr<ErrorText> SessionErrors = std::make_shared<ErrorText>();
  std::unique_ptr<llvm::orc::LLJIT> Jit;
  std::map<std::string, rt::WorkGroupFn> Functions;
  std::unique_ptr<llvm::orc::JITTargetMachineBuilder> Target;
  std::vector<unsigned char> PreparedIR;
  std::mutex SpecializeMutex;
  struct SpecializedFn {
    unsigned Asked = 0;    ///< launches that asked for it
    bool Compiled = false; ///< Fn is final (nullptr: it could not be made)
    rt::WorkGroupFn Fn = nullptr;
  };
  std::map<std::pair<std::string, rt::Specialization>, SpecializedFn> Specialized;
  /// Specializations compiled so far (each a symbol of its own).
  unsigned Compiles = 0;
};

} // namespace weft::compiler
