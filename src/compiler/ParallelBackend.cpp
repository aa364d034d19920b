#include "compiler/ParallelBackend.h"

#include "compiler/CompilerSession.h"
#include "compiler/CrashRecovery.h"
#include "compiler/JitExecutable.h"
#include "compiler/KernelPipeline.h"
#include "compiler/WorkItemFunction.h"
#include "runtime/TsanHandOff.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

using namespace llvm;

namespace weft::compiler {

namespace {

bool isWorkGroupFunction(const Function &F) {
  return !F.isDeclaration() && F.getName().startswith(wi::WorkGroupPrefix);
}

/// Instructions of F and of every function it calls, directly or not.
size_t weight(const Function &F) {
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work{&F};
  size_t N = 0;
  while (!Work.empty()) {
    const Function *G = Work.pop_back_val();
    if (G->isDeclaration() || !Seen.insert(G).second)
      continue;
    N += G->getInstructionCount();
    for (const BasicBlock &BB : *G)
      for (const Instruction &I : BB)
        if (const auto *Call = dyn_cast<CallBase>(&I))
          if (const Function *Callee = Call->getCalledFunction())
            Work.push_back(Callee);
  }
  return N;
}

/// Makes M's symbols fit to be split: only work-group functions and
/// program-scope variables stay visible outside a part. Mutable variables
/// become external (a `static` one under a name of its own), so that the
/// parts share part 0's instance; every other function, every constant and
/// every alias becomes internal, a copy per part.
void prepareForSplit(Module &M) {
  for (GlobalVariable &GV : M.globals()) {
    if (GV.isDeclaration() || GV.hasAppendingLinkage())
      continue;
    if (GV.isConstant()) {
      GV.setLinkage(GlobalValue::InternalLinkage);
      continue;
    }
    if (GV.hasLocalLinkage() || !GV.hasName())
      GV.setName("__weft_static." + GV.getName());
    GV.setLinkage(GlobalValue::ExternalLinkage);
    GV.setVisibility(GlobalValue::DefaultVisibility);
    GV.setComdat(nullptr);
  }
  for (Function &F : M)
    if (!F.isDeclaration() && !isWorkGroupFunction(F)) {
      F.setLinkage(GlobalValue::InternalLinkage);
      F.setComdat(nullptr);
    }
  for (GlobalAlias &A : M.aliases())
    A.setLinkage(GlobalValue::InternalLinkage);
}

/// Drops from M (parsed from the whole module's bitcode) what part Index,
/// holding the work-group functions Mine, does not own, and the internal
/// functions and constants nothing it owns uses any more.
void keepPart(Module &M, unsigned Index, const std::vector<std::string> &Mine) {
  StringSet<> Own;
  for (const std::string &Name : Mine)
    Own.insert(Name);
  for (Function &F : make_early_inc_range(M))
    if (isWorkGroupFunction(F) && !Own.contains(F.getName())) {
      F.deleteBody();
      if (F.use_empty())
        F.eraseFromParent();
    }
  if (Index != 0)
    for (GlobalVariable &GV : M.globals())
      if (!GV.isDeclaration() && !GV.hasAppendingLinkage() && !GV.hasLocalLinkage()) {
        GV.setInitializer(nullptr);
        GV.setLinkage(GlobalValue::ExternalLinkage);
      }
  ModulePassManager MPM;
  MPM.addPass(GlobalDCEPass());
  KernelPipeline::runModulePasses(M, MPM);
}

/// Optimizes (unless OptDisable) and compiles M; empty with Log on failure.
std::vector<unsigned char> optimizeAndCompile(Module &M, orc::JITTargetMachineBuilder JTMB,
                                              bool OptDisable, std::string &Log) {
  Expected<std::unique_ptr<TargetMachine>> TM = JTMB.createTargetMachine();
  if (!TM) {
    Log += "error: cannot create a target machine: " + toString(TM.takeError()) + "\n";
    return {};
  }
  if (!OptDisable)
    KernelPipeline::optimize(M, **TM);
  if (!KernelPipeline::verifyOptimized(M, Log))
    return {};
  // WEFT_DUMP_IR=1: the module as code generation gets it, for compiler
  // work (WEFT_DUMP_IR=pre: as O3 gets it, KernelPipeline.cpp); one part
  // at a time.
  if (const char *Dump = std::getenv("WEFT_DUMP_IR");
      Dump && *Dump && *Dump != '0' && std::string_view(Dump) != "pre") {
    static std::mutex DumpMutex;
    std::lock_guard<std::mutex> Lock(DumpMutex);
    M.print(errs(), nullptr);
  }
  return JitExecutable::compile(M, **TM, Log);
}

} // namespace

std::vector<std::vector<std::string>> ParallelBackend::partition(const Module &M,
                                                                 unsigned MaxParts) {
  std::vector<std::pair<size_t, std::string>> Kernels;
  for (const Function &F : M)
    if (isWorkGroupFunction(F))
      Kernels.emplace_back(weight(F), F.getName().str());
  // Heaviest first; equal weights by name, so that a build splits the
  // same way every time.
  std::sort(Kernels.begin(), Kernels.end(), [](const auto &A, const auto &B) {
    return A.first != B.first ? A.first > B.first : A.second < B.second;
  });
  size_t Parts = std::min<size_t>(std::max(MaxParts, 1u), std::max<size_t>(Kernels.size(), 1));
  std::vector<std::vector<std::string>> Out(Parts);
  std::vector<size_t> Load(Parts, 0);
  for (auto &[Weight, Name] : Kernels) {
    size_t Lightest = std::min_element(Load.begin(), Load.end()) - Load.begin();
    Load[Lightest] += Weight;
    Out[Lightest].push_back(std::move(Name));
  }
  return Out;
}

std::vector<std::vector<unsigned char>>
ParallelBackend::run(Module &M, const orc::JITTargetMachineBuilder &JTMB, bool OptDisable,
                     bool Concurrent, std::string &Log) {
  std::vector<std::vector<std::string>> Parts =
      partition(M, Concurrent ? unsigned(tbb::this_task_arena::max_concurrency()) : 1);
  if (Parts.size() <= 1) {
    std::vector<unsigned char> Object = optimizeAndCompile(M, JTMB, OptDisable, Log);
    if (Object.empty())
      return {};
    return {std::move(Object)};
  }

  prepareForSplit(M);
  SmallVector<char, 0> Bitcode;
  {
    raw_svector_ostream OS(Bitcode);
    WriteBitcodeToFile(M, OS);
  }
  struct Result {
    std::vector<unsigned char> Object;
    std::string Log;
  };
  std::vector<Result> Results(Parts.size());
  auto compilePart = [&](size_t I) {
    Result &R = Results[I];
    bool Finished = runRecoverably([&] {
      Session S;
      Expected<std::unique_ptr<Module>> Part = parseBitcodeFile(
          MemoryBufferRef(StringRef(Bitcode.data(), Bitcode.size()), "weft-part"), *S.Context);
      if (!Part) {
        R.Log = "error: internal compiler error: cannot read a part of the program: " +
                toString(Part.takeError()) + "\n";
        return;
      }
      keepPart(**Part, unsigned(I), Parts[I]);
      R.Object = optimizeAndCompile(**Part, JTMB, OptDisable, R.Log);
      if (S.Sink.HadError)
        R.Object.clear();
      R.Log += S.Sink.Text;
    });
    if (!Finished) {
      R.Object.clear();
      R.Log = CrashedBuildMessage;
    }
  };
  // Each part starts after the module was written and ends before its
  // object is read (for TSan, which cannot see TBB's own synchronization;
  // see TsanHandOff.h).
  auto Compile = [&](const tbb::blocked_range<size_t> &R) {
    for (size_t I = R.begin(); I != R.end(); ++I)
      compilePart(I);
  };
  tbb::parallel_for(tbb::blocked_range<size_t>(0, Parts.size(), 1), tsan::HandedOff(Compile));
  tsan::acquire(&Compile);

  std::vector<std::vector<unsigned char>> Objects;
  bool Failed = false;
  for (Result &R : Results) {
    Log += R.Log;
    Failed |= R.Object.empty();
    Objects.push_back(std::move(R.Object));
  }
  if (Failed)
    return {};
  return Objects;
}

} // namespace weft::compiler
