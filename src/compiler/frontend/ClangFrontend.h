// ClangFrontend: OpenCL C source to an LLVM module, in process, with
// clang::CompilerInstance. The module targets spir64-unknown-unknown, which
// keeps the OpenCL address spaces (1 global, 2 constant, 3 local, 4 generic)
// and gives the simple SPIR argument ABI the later passes rely on.
//
// Embedded headers (clCompileProgram's input_headers) are in-memory files
// remapped under their include names, so `#include "foo/bar.h"` finds them
// without touching the disk.
#pragma once

#include "compiler/frontend/BuildOptions.h"
#include "runtime/program/ProgramCompiler.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <string>
#include <vector>

namespace weft::compiler {

class ClangFrontend {
public:
  /// Compiles Source; returns nullptr on error. Diagnostics (warnings too)
  /// are appended to Log. Headers are visible to #include by name. If
  /// ReadFiles is given, it receives the files the compile read from disk
  /// (what -I made visible; not Clang's own headers nor embedded ones), each
  /// with the contents the compile saw.
  static std::unique_ptr<llvm::Module> compile(const std::string &Source, const BuildOptions &Opts,
                                               llvm::LLVMContext &Ctx, std::string &Log,
                                               const std::vector<rt::EmbeddedHeader> &Headers = {},
                                               std::vector<std::pair<std::string, std::string>> *ReadFiles = nullptr);

  /// A function of clang's full OpenCL C header.
  struct Declaration {
    std::string MangledName;             ///< "_Z3sinf"
    std::string Name;                    ///< "sin"
    std::vector<std::string> ParamTypes; ///< as OpenCL C spells them: "__global float *"
    bool Variadic = false;
  };

  /// Every function that clang's full OpenCL C header (opencl-c.h, which
  /// the builtin library is compiled against) declares for the language
  /// version in Opts and exactly the device's extensions and features; the
  /// declarations clang rejects for a feature the device does not report
  /// are left out. For checking that the library is complete
  /// (BuiltinCoverageTest). Builds themselves declare the builtins from
  /// clang's table (-fdeclare-opencl-builtins), which mirrors the header.
  static std::vector<Declaration> declaredBuiltins(const BuildOptions &Opts, std::string &Log);
};

} // namespace weft::compiler
