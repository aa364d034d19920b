// Test helper: builds OpenCL C with the ProgramCompiler and runs a kernel's
// work-group function over an NDRange by hand — the job the CPU device does
// in the runtime, reduced to a loop over groups on one thread.
#pragma once

#include "runtime/program/ProgramCompiler.h"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/PassManager.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace weft::compiler::test {

/// One kernel argument: bytes of a by-value value, a pointer, or a __local size.
struct Arg {
  enum Kind { Value, Pointer, Local } K = Value;
  std::vector<char> Bytes;
  void *Ptr = nullptr;
  size_t LocalSize = 0;

  template <typename T> static Arg value(const T &V) {
    Arg A;
    A.Bytes.resize(sizeof(T));
    std::memcpy(A.Bytes.data(), &V, sizeof(T));
    return A;
  }
  static Arg pointer(void *P) {
    Arg A;
    A.K = Pointer;
    A.Ptr = P;
    return A;
  }
  static Arg local(size_t Size) {
    Arg A;
    A.K = Local;
    A.LocalSize = Size;
    return A;
  }
};

/// Allocates as the runtime does a buffer: 128-byte aligned, so that a
/// kernel may load a double8 or float16 with aligned instructions.
template <typename T> struct BufferAllocator {
  using value_type = T;
  static constexpr size_t Alignment = 128;
  BufferAllocator() = default;
  template <typename U> BufferAllocator(const BufferAllocator<U> &) {}
  T *allocate(size_t N) {
    void *P =
        std::aligned_alloc(Alignment, (N * sizeof(T) + Alignment - 1) / Alignment * Alignment);
    if (!P)
      throw std::bad_alloc();
    return static_cast<T *>(P);
  }
  void deallocate(T *P, size_t) { std::free(P); }
  template <typename U> bool operator==(const BufferAllocator<U> &) const { return true; }
  template <typename U> bool operator!=(const BufferAllocator<U> &) const { return false; }
};

/// Host memory for a kernel's buffer argument.
template <typename T> using Buffer = std::vector<T, BufferAllocator<T>>;

struct NDRange {
  unsigned Dims = 1;
  std::array<size_t, 3> Global{1, 1, 1};
  std::array<size_t, 3> Local{1, 1, 1};
  std::array<size_t, 3> Offset{0, 0, 0};
};

/// A 1-D range of Global work-items in groups of Local.
inline NDRange range1(size_t Global, size_t Local) {
  NDRange R;
  R.Global[0] = Global;
  R.Local[0] = Local;
  return R;
}

class Program {
public:
  /// Builds Source; fails the current test (and returns false) on error.
  bool build(const std::string &Source, const std::string &Options = "");
  /// Links compiled objects to an executable (ProgramCompiler::link); fails
  /// the current test (and returns false) on error or on a library.
  bool link(const std::vector<std::vector<unsigned char>> &Objects,
            const std::string &Options = "");
  const rt::KernelDesc *kernel(const std::string &Name) const;
  /// The work-group function of kernel Name, compiled at the first call
  /// (Executable::lookup); nullptr, with a test failure, if there is none.
  rt::WorkGroupFn function(const std::string &Name);
  /// Executable::compileAhead of the named kernels.
  void compileAhead(const std::vector<std::string> &Names) {
    if (Out.Exe)
      Out.Exe->compileAhead(Names);
  }
  /// Runs kernel Name over Range (non-uniform edge groups allowed).
  bool run(const std::string &Name, const NDRange &Range, const std::vector<Arg> &Args);
  /// Runs kernel Name over Range (every group of the same size) with its
  /// work-group function compiled for Range's local size, as a hot kernel's
  /// launches get it (Executable::specialize); fails the current test (and
  /// returns false) if the executable makes none.
  bool runSpecialized(const std::string &Name, const NDRange &Range, const std::vector<Arg> &Args);
  /// Runs kernel Name over Range with its work-group function compiled for
  /// S (as given: the caller vouches for its facts); fails the current
  /// test (and returns false) if the executable makes none.
  bool runSpecializedFor(const std::string &Name, const NDRange &Range,
                         const std::vector<Arg> &Args, const rt::Specialization &S);
  const std::string &log() const { return Log; }
  /// The build came from the on-disk kernel cache.
  bool fromDiskCache() const { return Out.FromDiskCache; }

private:
  bool runWith(rt::WorkGroupFn Fn, const std::string &Name, const NDRange &Range,
               const std::vector<Arg> &Args);

  rt::BuildOutput Out;
  std::string Log;
};

/// Runs Body with WEFT_DUMP_IR=When and returns what it printed to stderr:
/// the module of every kernel it compiled ("" if it compiled none), as O3
/// gets it ("pre") or as the JIT gets it ("1").
std::string compilesPrinted(const std::function<void()> &Body, const char *When = "pre");

/// The host's TargetMachine, as the runtime compiles for it (nullptr, with a
/// test failure, on error): for tests that run passes needing the host's
/// vector registers.
std::unique_ptr<llvm::TargetMachine> hostTargetMachine();

/// A TargetMachine for Cpu (an x86-64 level or LLVM CPU name) whether or
/// not the host can run its code (nullptr, with a test failure, on error):
/// for tests that compile to inspect, never to run.
std::unique_ptr<llvm::TargetMachine> targetMachineFor(const std::string &Cpu);

/// The analysis managers of a pass pipeline, each analysis registered and
/// the managers cross-wired (TM's target analyses when given): for tests
/// that run a pass needing loop or module analyses.
struct PassAnalyses {
  explicit PassAnalyses(llvm::TargetMachine *TM = nullptr);
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
};

} // namespace weft::compiler::test
