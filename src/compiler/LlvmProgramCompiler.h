// LlvmProgramCompiler: the ProgramCompiler (runtime/program/ProgramCompiler.h) built
// on Clang and LLVM: front end -> KernelPipeline -> JitExecutable. Compiled
// objects and libraries are the front end's modules as bitcode, before the
// builtins and the work-group passes, so that link() sees whole programs.
#pragma once

#include "runtime/program/ProgramCompiler.h"

namespace weft::compiler {

class LlvmProgramCompiler : public rt::ProgramCompiler {
public:
  std::variant<rt::BuildOutput, rt::BuildFailure> buildSource(const std::string &Source,
                                                              const std::string &Options) override;
  std::variant<rt::ObjectOutput, rt::BuildFailure>
  compileSource(const std::string &Source, const std::string &Options,
                const std::vector<rt::EmbeddedHeader> &Headers) override;
  std::string checkIL(const std::vector<unsigned char> &IL) override;
  std::map<uint32_t, uint32_t> ilSpecConstants(const std::vector<unsigned char> &IL) override;
  std::variant<rt::BuildOutput, rt::BuildFailure> buildIL(const rt::IntermediateLanguage &IL,
                                                          const std::string &Options) override;
  std::variant<rt::ObjectOutput, rt::BuildFailure> compileIL(const rt::IntermediateLanguage &IL,
                                                             const std::string &Options) override;
  std::variant<rt::BuildOutput, rt::ObjectOutput, rt::BuildFailure>
  link(const std::vector<std::vector<unsigned char>> &Objects, const std::string &Options) override;
  bool inputsUnchanged(const rt::FileDigests &Inputs) override;
  rt::CodeTarget target() override;
};

} // namespace weft::compiler
