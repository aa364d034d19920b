// JitExecutable: the machine code of one program — an ORC LLJIT holding the
// variables part of the program (ProgramParts) and, as launches ask for
// them, the part of each kernel, compiled from the module as the kernel
// pipeline prepared it; and, for a program with image arguments or
// barriers, copies of a work-group function compiled for what a launch
// fixes (its images' formats, its local size).
#pragma once

#include "compiler/codegen/DiskCache.h"
#include "runtime/program/ProgramCompiler.h"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace weft::compiler {

/// What a built program is before any of its kernels is compiled.
struct PreparedProgram {
  /// The kernels (not their work-group functions' names).
  std::vector<std::string> Kernels;
  /// The program as the kernel pipeline prepared it, made splittable
  /// (ProgramParts::makeSplittable), as bitcode.
  std::vector<unsigned char> Module;
  /// The variables part's object; empty when the program has no mutable
  /// program-scope variable.
  std::vector<unsigned char> Variables;
  /// Built with -cl-opt-disable: parts are compiled without O3.
  bool OptDisable = false;
  /// Launches get copies compiled for what they fix (specialize()).
  bool Specializable = false;
};

/// Where the objects of a program's kernels are kept between processes:
/// an entry of the disk cache per kernel, keyed by the prepared module
/// (what the object is compiled from: two builds under one program key
/// differ when a header they read changed) and the kernel's name.
struct KernelObjectCache {
  DiskCache Cache;
  std::string Target; ///< the device, as program keys name it
};

class JitExecutable : public rt::Executable {
public:
  /// The executable of P for JTMB's target; nullptr, with a message in
  /// Log, if the JIT cannot be made. Objects compiled for P's kernels are
  /// looked for in, and stored to, Cache when there is one.
  static std::unique_ptr<JitExecutable> create(llvm::orc::JITTargetMachineBuilder JTMB,
                                               PreparedProgram P,
                                               std::optional<KernelObjectCache> Cache,
                                               std::string &Log);
  /// Generates the object code of M with TM; empty with a message in Log
  /// on failure.
  static std::vector<unsigned char> compile(llvm::Module &M, llvm::TargetMachine &TM,
                                            std::string &Log);

  /// Whether every function in Names resolves (the program defines it, or
  /// the host's libraries do); otherwise false, with an error per missing
  /// function in Log. A build checks the functions its module calls, which
  /// code generation would otherwise find missing only at a launch.
  bool resolves(const std::vector<std::string> &Names, std::string &Log);

  bool defines(const std::string &KernelName) const override;
  /// Compiles the kernel's part at the first call (or loads its object
  /// from the disk cache); the function, or the failure, is kept.
  rt::Result<rt::WorkGroupFn> lookup(const std::string &KernelName) override;
  /// Compiles the kernels named, all at once on the oneTBB arena of the
  /// calling thread, as their first launches would one after another.
  void compileAhead(const std::vector<std::string> &KernelNames) override;
  /// Image formats are compiled for at the first launch that asks. A
  /// local size is compiled for at the HotLaunches-th launch that asks for
  /// the same specialization: a compile costs tens of milliseconds, which
  /// a kernel launched once or twice per shape (the CTS's many sizes) would
  /// not earn back; until then the formats alone (or nothing) serve.
  rt::WorkGroupFn specialize(const std::string &KernelName, const rt::Specialization &S) override;
  static constexpr unsigned HotLaunches = 3;

private:
  /// specialize() with Mutex held.
  rt::WorkGroupFn specializeLocked(const std::string &KernelName, const rt::Specialization &S);
  /// Compiles the parts of KernelNames (none compiled yet; several at once
  /// on the oneTBB arena of the calling thread), adds them to the JIT and
  /// keeps each function, or why there is none, in Functions. Mutex held.
  void compileLocked(const std::vector<std::string> &KernelNames);
  /// The part of KernelName compiled for S (not empty), under a name of
  /// its own, added to the JIT (objectFor); nullptr, with a message in Log,
  /// if it cannot be made. Mutex held.
  rt::WorkGroupFn compileSpecialized(const std::string &KernelName, const rt::Specialization &S,
                                     std::string &Log);
  /// The object of KernelName's part (compiled for S unless S is empty),
  /// its work-group function named Symbol: loaded from the cache, or
  /// compiled from the prepared module and stored there (S empty). Empty,
  /// with a message in Log, if it cannot be made. *Generated (if given)
  /// says whether O3 and code generation ran, not the cache. Touches
  /// nothing of the executable but the cache: compileLocked runs several
  /// at once (with Mutex held by the thread that waits for them).
  std::vector<unsigned char> objectFor(const std::string &KernelName, const rt::Specialization &S,
                                       const std::string &Symbol, std::string &Log,
                                       bool *Generated = nullptr);
  /// Adds Object to the JIT and finds Symbol in it; nullptr, with a message
  /// in Log, on failure.
  rt::WorkGroupFn addObject(const std::vector<unsigned char> &Object, const std::string &Symbol,
                            std::string &Log);
  /// The disk cache key of KernelName's object. Mutex held; the first
  /// call computes the module's digest, which later calls only read.
  std::string cacheKey(const std::string &KernelName);

  struct ErrorText {
    std::mutex Mutex;
    std::string Text;
  };
  /// What the session reported; shared with its error reporter.
  std::shared_ptr<ErrorText> SessionErrors = std::make_shared<ErrorText>();
  std::unique_ptr<llvm::orc::LLJIT> Jit;
  std::unique_ptr<llvm::orc::JITTargetMachineBuilder> Target;
  PreparedProgram Program;
  std::optional<KernelObjectCache> Cache;
  /// SHA-256 of Program.Module, once a kernel's cache key needed it.
  std::string ModuleDigest;
  /// Serialises compiles, and guards what follows.
  std::mutex Mutex;
  /// Each kernel looked up so far: its function, or why there is none.
  std::map<std::string, rt::Result<rt::WorkGroupFn>> Functions;
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
