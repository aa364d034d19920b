// JitExecutable: the machine code of one program — an ORC LLJIT owning the
// compiled module, with the work-group function of every kernel looked up
// (and so compiled) eagerly when the program is built.
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
  static std::unique_ptr<JitExecutable>
  create(llvm::orc::JITTargetMachineBuilder JTMB,
         const std::vector<std::vector<unsigned char>> &Objects,
         const std::vector<std::string> &KernelNames, std::string &Log);
  /// Generates the object code of M with TM; empty with a message in Log
  /// on failure.
  static std::vector<unsigned char> compile(llvm::Module &M, llvm::TargetMachine &TM,
                                            std::string &Log);

  rt::WorkGroupFn lookup(const std::string &KernelName) const override;

private:
  struct ErrorText {
    std::mutex Mutex;
    std::string Text;
  };
  /// What the session reported; shared with its error reporter.
  std::shared_ptr<ErrorText> SessionErrors = std::make_shared<ErrorText>();
  std::unique_ptr<llvm::orc::LLJIT> Jit;
  std::map<std::string, rt::WorkGroupFn> Functions;
};

} // namespace weft::compiler
