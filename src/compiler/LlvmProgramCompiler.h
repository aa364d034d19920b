// LlvmProgramCompiler: the ProgramCompiler (runtime/ProgramCompiler.h) built
// on Clang and LLVM: front end -> KernelPipeline -> JitExecutable.
#pragma once

#include "runtime/ProgramCompiler.h"

namespace weft::compiler {

class LlvmProgramCompiler : public rt::ProgramCompiler {
public:
  std::variant<rt::BuildOutput, rt::BuildFailure> buildSource(const std::string &Source,
                                                              const std::string &Options) override;
};

} // namespace weft::compiler
