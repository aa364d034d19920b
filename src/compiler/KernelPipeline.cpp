// The kernel pipeline, stage by stage, and why in this order:
//
//  1. Link the builtin library (LinkOnlyNeeded, from lazily read bitcode,
//     only the parts that define what the program calls):
//     first, because builtins may themselves contain what later stages
//     rewrite (calls to other builtins, fences) and must be inlined too.
//  2. Retarget to the host (triple, data layout, C calling convention):
//     before describing kernels, so by-value argument sizes come from the
//     host data layout, and before any pass that queries the target.
//  3. Describe kernels from their metadata, while the kernels still exist.
//  4. WorkItemFunctionPass, then AlwaysInliner + GlobalDCE: every kernel's
//     call tree folds into its work-item function, so barriers in helpers
//     become barriers in the kernel and every local-id use is visible.
//     A call to a defined function that survives means recursion: rejected.
//  5. LaneLoopUnrollPass on kernels with barriers (their builtins' loops over
//     a float4's lanes would keep their arrays on the stack, which
//     BarrierStatePass puts in the frames), SROA, markConditionArguments
//     (in SSA form, while a loop with a barrier is still a loop: the
//     arguments worth compiling in), then BarrierStatePass:
//     needs the whole body (4), and SSA values
//     rather than Clang's allocas, so only what lives across a barrier goes
//     to the frame; must come before 6/7, which insert loads at the entry
//     block it creates (otherwise those values would be needlessly spilled
//     to the frame).
//  6. LocalMemoryPass: static __local variables -> LocalMem offsets.
//  7. WorkItemBuiltinPass: get_*_id etc. -> Lx/Ly/Lz and Ctx loads.
//     PrintfPass: printf -> the device's printf entry in the Ctx.
//     DeviceEnqueuePass: enqueue_kernel and the device-event built-ins ->
//     the device-enqueue services; its first step, naming the block
//     kernels, runs before 3, while the kernels' own functions exist.
//     AtomicPass: Clang's atomic library calls -> atomic instructions;
//     after inlining, so the orders are the kernel's constants.
//     SafeDivisionPass: integer division by 0 (or INT_MIN / -1) must not
//     trap; after inlining, so it sees every division, before O3, so the
//     guards are vectorized with the division.
//  8. WorkGroupLoopPass + AlwaysInliner + GlobalDCE: the work-group loop
//     nest with the work-item function inlined into its x loop (which a
//     launch compiled for a local size with rows holds from O3's full
//     unroller until ReleaseWorkItemLoopsPass, first at the vectorizer's
//     start).
//  9. Reject leftover calls to OpenCL builtins we lack; the host functions
//     still called lose OpenCL's convergent mark; verify the module.
//     ImageDescriptorPass marks the loads of image descriptors invariant,
//     once the work-group function names each argument (8), before O3's
//     LICM.
// 10. O3 with the host TargetMachine (unless -cl-opt-disable): now the loop
//     vectorizer sees the x loop over work-items, knows libmvec's and
//     SLEEF's vector forms of the math calls in it (VectorMath.h), and that
//     OpenCL's named address spaces do not alias (AddressSpaceAA.h).
//     At its start, BoundsCheckVersioningPass gives a work-item loop with
//     a bounds check a copy without it, for the groups where it holds,
//     and VectorTypeScalarizerPass splits kernels on small vector types.
//     Last in it, after the vectorizers, ComponentTransposePass loads and
//     stores the components of wide vector types that the loop vectorizer
//     gathered and scattered whole, and transposes them in registers;
//     LaneCallPackingPass makes the per-lane libm calls they left of a
//     small vector one vector call, VectorFremPass computes the vector
//     frems they made (fmod, remainder, remquo) in vector registers, and
//     DotProductPass makes 8-bit dot products VNNI instructions.
#include "compiler/KernelPipeline.h"

#include "builtins/BuiltinBitcode.h"
#include "compiler/AddressSpace.h"
#include "compiler/OpenClNames.h"
#include "compiler/codegen/HostTarget.h"
#include "compiler/frontend/KernelDescBuilder.h"
#include "compiler/specialize/ArgumentSpecialization.h"
#include "compiler/specialize/ImageDescriptorPass.h"
#include "compiler/specialize/StreamingStores.h"
#include "compiler/vectorize/ActiveRangePass.h"
#include "compiler/vectorize/AddressSpaceAA.h"
#include "compiler/vectorize/AtomicLanePass.h"
#include "compiler/vectorize/BoundsCheckVersioningPass.h"
#include "compiler/vectorize/ChainInterleavePass.h"
#include "compiler/vectorize/ComponentTransposePass.h"
#include "compiler/vectorize/DotProductPass.h"
#include "compiler/vectorize/GroupPrefetchPass.h"
#include "compiler/vectorize/IndexWideningPass.h"
#include "compiler/vectorize/InnerChainUnrollPass.h"
#include "compiler/vectorize/LaneCallPackingPass.h"
#include "compiler/vectorize/RowInterleavePass.h"
#include "compiler/vectorize/VectorFremPass.h"
#include "compiler/vectorize/VectorMath.h"
#include "compiler/vectorize/VectorTypeScalarizerPass.h"
#include "compiler/vectorize/WorkItemJamPass.h"
#include "compiler/workgroup/AtomicPass.h"
#include "compiler/workgroup/BarrierStatePass.h"
#include "compiler/workgroup/DeviceEnqueuePass.h"
#include "compiler/workgroup/LaneLoopUnrollPass.h"
#include "compiler/workgroup/LocalMemoryPass.h"
#include "compiler/workgroup/PrintfPass.h"
#include "compiler/workgroup/SafeDivisionPass.h"
#include "compiler/workgroup/StateThreadingPass.h"
#include "compiler/workgroup/WorkGroupLoopPass.h"
#include "compiler/workgroup/WorkItemBuiltinPass.h"
#include "compiler/workgroup/WorkItemFunction.h"
#include "compiler/workgroup/WorkItemFunctionPass.h"
#include "runtime/platform/Capabilities.h"

#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/Scalar/InferAddressSpaces.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>

#include <cstdlib>

using namespace llvm;

namespace weft::compiler {

namespace {

/// A kernel's sub-group size (wi::SubGroupSizeAttr): the device's rule
/// (rt::defaultSubGroupSize) for the widest vector registers of the CPU F
/// is compiled for, read from its features as LlvmProgramCompiler::target
/// reads them for the device (64 bytes with AVX-512F and BW, 32 with AVX,
/// else 16), so that the kernels and clGetDeviceInfo agree.
uint64_t defaultSubGroupSize(const Function &F) {
  StringRef Features = F.getFnAttribute("target-features").getValueAsString();
  SmallVector<StringRef, 64> Items;
  Features.split(Items, ',');
  auto has = [&](StringRef Feature) { return is_contained(Items, Feature); };
  const unsigned SimdBytes = has("+avx512f") && has("+avx512bw") ? 64 : has("+avx") ? 32 : 16;
  return rt::defaultSubGroupSize(SimdBytes);
}

bool verify(Module &M, const char *Stage, std::string &Log) {
  std::string Text;
  raw_string_ostream OS(Text);
  if (!verifyModule(M, &OS))
    return true;
  Log += std::string("error: internal compiler error: invalid IR after ") + Stage + ":\n" + OS.str();
  return false;
}

} // namespace

// Read once per process from the parts' symbol lists.
const StringMap<unsigned> &KernelPipeline::builtinDefinitions() {
  static const auto *Defined = [] {
    auto *D = new StringMap<unsigned>;
    const std::vector<builtins::Part> &Parts = builtins::parts();
    for (unsigned P = 0; P < Parts.size(); ++P) {
      SmallVector<StringRef, 0> Names;
      StringRef(Parts[P].Symbols.data(), Parts[P].Symbols.size())
          .split(Names, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
      for (StringRef Name : Names)
        D->try_emplace(Name, P);
    }
    return D;
  }();
  return *Defined;
}

void KernelPipeline::runModulePasses(Module &M, ModulePassManager &MPM) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  MPM.run(M, MAM);
}

bool KernelPipeline::linkBuiltins(Module &M, std::string &Log) {
  const std::vector<builtins::Part> &Parts = builtins::parts();
  const StringMap<unsigned> &Defined = builtinDefinitions();
  // Rounds: the parts defining what M declares, then the parts defining
  // what those call, until the library defines none of M's declarations.
  // A part links again when a later part calls more of it. A symbol asked
  // for twice was not defined by its part: a broken build of the library,
  // reported rather than looped on.
  StringSet<> Asked;
  for (;;) {
    SmallSetVector<unsigned, 8> Wanted;
    for (const GlobalValue &G : M.global_values())
      if (G.isDeclaration())
        if (auto It = Defined.find(G.getName()); It != Defined.end()) {
          if (!Asked.insert(G.getName()).second) {
            Log += "error: internal compiler error: the builtin library's " +
                   std::string(Parts[It->second].Name) + " part does not define '" +
                   G.getName().str() + "'\n";
            return false;
          }
          Wanted.insert(It->second);
        }
    if (Wanted.empty())
      break;
    for (unsigned P : Wanted) {
      const builtins::Part &Part = Parts[P];
      auto Buffer = MemoryBuffer::getMemBuffer(
          StringRef(Part.Bitcode.data(), Part.Bitcode.size()),
          "weft_builtins_" + std::string(Part.Name), /*RequiresNullTerminator=*/false);
      Expected<std::unique_ptr<Module>> Lib =
          getOwningLazyBitcodeModule(std::move(Buffer), M.getContext());
      if (!Lib) {
        Log += "error: cannot read the builtin library's " + std::string(Part.Name) +
               " part: " + toString(Lib.takeError()) + "\n";
        return false;
      }
      (*Lib)->setDataLayout(M.getDataLayout());
      (*Lib)->setTargetTriple(M.getTargetTriple());
      if (Linker::linkModules(M, std::move(*Lib), Linker::LinkOnlyNeeded)) {
        Log += "error: cannot link the builtin library's " + std::string(Part.Name) + " part\n";
        return false;
      }
    }
  }
  return verify(M, "linking builtins", Log);
}

namespace {

/// Whether a work-group function may wait for other work while it runs
/// (KernelDesc::MayWait): an atomic operation, a fence, a volatile access,
/// or a call through a pointer (the device services).
bool mayWait(const Function &WG) {
  for (const Instruction &I : instructions(WG)) {
    if (I.isAtomic() || isa<FenceInst>(I))
      return true;
    if (const auto *L = dyn_cast<LoadInst>(&I); L && L->isVolatile())
      return true;
    if (const auto *S = dyn_cast<StoreInst>(&I); S && S->isVolatile())
      return true;
    if (const auto *M = dyn_cast<MemIntrinsic>(&I); M && M->isVolatile())
      return true;
    if (const auto *Call = dyn_cast<CallBase>(&I); Call && Call->isIndirectCall())
      return true;
  }
  return false;
}

/// The bytes of WG's stores to __global memory, each store counted once
/// (KernelDesc::GlobalStoreBytes).
uint64_t globalStoreBytes(const Function &WG) {
  const DataLayout &DL = WG.getParent()->getDataLayout();
  uint64_t Bytes = 0;
  for (const Instruction &I : instructions(WG))
    if (const auto *S = dyn_cast<StoreInst>(&I);
        S && S->getPointerAddressSpace() == addrspace::Global)
      Bytes += DL.getTypeStoreSize(S->getValueOperand()->getType()).getKnownMinSize();
  return Bytes;
}

} // namespace

bool KernelPipeline::runWorkGroupPasses(Module &M, std::string &Log) {
  {
    ModulePassManager MPM;
    MPM.addPass(WorkItemFunctionPass());
    MPM.addPass(AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/true));
    MPM.addPass(GlobalDCEPass());
    runModulePasses(M, MPM);
  }
  for (Function &F : M) {
    if (!wi::isWorkItemFunction(F))
      continue;
    if (!F.hasFnAttribute(wi::SubGroupSizeAttr))
      wi::setSizeAttr(F, wi::SubGroupSizeAttr, defaultSubGroupSize(F));
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction(); Callee && !Callee->isDeclaration()) {
          Log += "error: kernel '" + F.getFnAttribute(wi::KernelAttr).getValueAsString().str() +
                 "' calls '" + Callee->getName().str() +
                 "' recursively (OpenCL C does not allow recursion)\n";
          return false;
        }
  }
  {
    ModulePassManager MPM;
    // Private scalars become SSA values first, so only what is live across
    // a barrier goes to the frame, not every variable of the kernel; the
    // lane loops of kernels with barriers are unrolled for that too.
    MPM.addPass(createModuleToFunctionPassAdaptor(LaneLoopUnrollPass()));
    MPM.addPass(createModuleToFunctionPassAdaptor(SROAPass()));
    runModulePasses(M, MPM);
  }
  // While a loop with a barrier in it is still a loop.
  for (Function &F : M)
    if (wi::isWorkItemFunction(F))
      markConditionArguments(F);
  {
    ModulePassManager MPM;
    MPM.addPass(BarrierStatePass());
    MPM.addPass(LocalMemoryPass());
    MPM.addPass(WorkItemBuiltinPass());
    MPM.addPass(PrintfPass());
    MPM.addPass(DeviceEnqueuePass());
    MPM.addPass(createModuleToFunctionPassAdaptor(AtomicPass()));
    MPM.addPass(createModuleToFunctionPassAdaptor(SafeDivisionPass()));
    runModulePasses(M, MPM);
  }
  for (Function &F : M)
    if (F.hasFnAttribute("weft-error")) {
      Log += "error: kernel '" + F.getFnAttribute(wi::KernelAttr).getValueAsString().str() + "': " +
             F.getFnAttribute("weft-error").getValueAsString().str() + "\n";
      return false;
    }
  {
    ModulePassManager MPM;
    MPM.addPass(WorkGroupLoopPass());
    MPM.addPass(AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/true));
    MPM.addPass(GlobalDCEPass());
    runModulePasses(M, MPM);
  }
  for (Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic() || F.use_empty())
      continue;
    // Anything still calling a mangled OpenCL builtin names one we lack.
    StringRef Base = demangledBaseName(F.getName());
    if (!Base.empty()) {
      Log += "error: unsupported OpenCL builtin '" + Base.str() + "' (" + F.getName().str() + ")\n";
      return false;
    }
    // The rest is the host's (libm's sinf, ...), but OpenCL C made every
    // call convergent. No work-item depends on another's call any more
    // (barriers and collectives are loops now), and a convergent call
    // would deny the loop vectorizer the run-time alias checks it needs.
    F.removeFnAttr(Attribute::Convergent);
    for (User *U : F.users())
      if (auto *Call = dyn_cast<CallBase>(U))
        Call->removeFnAttr(Attribute::Convergent);
  }
  // Inline assembly (a Clang extension OpenCL C does not have) would fail
  // only in code generation, at the kernel's first launch: the JIT has no
  // assembler.
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I); Call && Call->isInlineAsm()) {
        Log += "error: function '" + F.getName().str() + "': inline assembly is not supported\n";
        return false;
      }
  return verify(M, "the work-group passes", Log);
}

void KernelPipeline::optimize(Module &M, TargetMachine &TM) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PipelineTuningOptions PTO;
  PTO.LoopVectorization = true;
  PTO.SLPVectorization = true;
  PassBuilder PB(&TM, PTO);
  // The vector forms of math functions (VectorMath.h), so that calls to
  // them do not keep the work-item loop scalar.
  TargetLibraryInfoImpl TLII(TM.getTargetTriple());
  VectorMath::addMappings(TLII, TM);
  FAM.registerPass([&] { return TargetLibraryAnalysis(TLII); });
  // OpenCL's named address spaces do not alias (AddressSpaceAA.h), so a
  // kernel reading __constant or __local memory and writing __global
  // memory vectorizes.
  FAM.registerPass([] { return AddressSpaceAA(); });
  FAM.registerPass([&] {
    AAManager AA = PB.buildDefaultAAPipeline();
    AA.registerFunctionAnalysis<AddressSpaceAA>();
    return AA;
  });
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  // First, before reassociation drops the `nsw` it needs, index arithmetic
  // that varies with the work-item is done in 64 bits
  // (WEFT_NO_INDEX_WIDENING=1 keeps it as the front end wrote it).
  PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    if (!std::getenv("WEFT_NO_INDEX_WIDENING"))
      MPM.addPass(createModuleToFunctionPassAdaptor(IndexWideningPass()));
  });
  // A chain in a loop of its own inside a work-item loop is unrolled whole
  // where that stays small, before the full unroller weighs it.
  // (WEFT_NO_INNER_CHAIN_UNROLL=1 turns it off, to measure it.)
  PB.registerLateLoopOptimizationsEPCallback([](LoopPassManager &LPM, OptimizationLevel) {
    if (!std::getenv("WEFT_NO_INNER_CHAIN_UNROLL"))
      LPM.addPass(InnerChainUnrollPass());
  });
  // Generic pointers that are casts of named ones become named again, so
  // that the vectorizer's run-time alias checks compare pointers of one
  // address space; a reduction's step runs only the work-items its check
  // lets in, so that those checks pass (on loops in simplified form: with
  // a constant local size, a region's x loop may be entered straight from
  // the state switch, or share its exit with other regions); and kernels
  // written with vector types vectorize across work-items too.
  PB.registerVectorizerStartEPCallback([](FunctionPassManager &FPM, OptimizationLevel) {
    // First, a kernel with barriers runs its regions in the order its code
    // does, and its loops of barriers of a known trip count unrolled
    // (WEFT_NO_STATE_THREADING=1 keeps the state loop's switch).
    if (!std::getenv("WEFT_NO_STATE_THREADING"))
      FPM.addPass(StateThreadingPass());
    FPM.addPass(ReleaseWorkItemLoopsPass());
    FPM.addPass(InferAddressSpacesPass(addrspace::Generic));
    FPM.addPass(LoopSimplifyPass());
    // Work-items whose loops have data-dependent exits run several at a
    // time (WEFT_NO_WORK_ITEM_JAM=1 keeps them one at a time).
    if (!std::getenv("WEFT_NO_WORK_ITEM_JAM")) {
      FPM.addPass(WorkItemJamPass());
      FPM.addPass(LoopSimplifyPass());
    }
    FPM.addPass(ActiveRangePass());
    FPM.addPass(BoundsCheckVersioningPass());
    FPM.addPass(VectorTypeScalarizerPass());
    if (!std::getenv("WEFT_NO_CHAIN_INTERLEAVE"))
      FPM.addPass(ChainInterleavePass());
    // Last: atomics in work-item loops are vectorized here, combined per
    // address (WEFT_NO_ATOMIC_LANES=1 keeps such loops scalar).
    if (!std::getenv("WEFT_NO_ATOMIC_LANES"))
      FPM.addPass(AtomicLanePass());
  });
  // After the vectorizers: the gathers and scatters of a float16's
  // components become whole-vector loads and stores and a transposition
  // (WEFT_NO_COMPONENT_TRANSPOSE=1 keeps them, to measure it); a double2
  // builtin's per-lane libm calls become one call of the vector form;
  // vector frems are computed in vector registers rather than one fmod
  // call per lane, whose step needs a fused multiply-add that is one
  // instruction; 8-bit dot products, whole only now, become dot-product
  // instructions; and last, the rows of a group whose x loop became one
  // straight run of vector code run side by side where each is a long
  // chain (WEFT_NO_ROW_INTERLEAVE=1 keeps them one after another).
  const bool Fma = TM.getMCSubtargetInfo()->checkFeatures("+fma");
  const MCSubtargetInfo &STI = *TM.getMCSubtargetInfo();
  PB.registerOptimizerLastEPCallback([Fma, &STI](ModulePassManager &MPM, OptimizationLevel) {
    if (!std::getenv("WEFT_NO_COMPONENT_TRANSPOSE"))
      MPM.addPass(createModuleToFunctionPassAdaptor(ComponentTransposePass()));
    MPM.addPass(createModuleToFunctionPassAdaptor(LaneCallPackingPass()));
    if (Fma)
      MPM.addPass(createModuleToFunctionPassAdaptor(VectorFremPass()));
    // 8-bit dot products become VNNI instructions where the CPU has them
    // (WEFT_NO_DOT_PRODUCT=1 keeps the vectorized shifts and multiplies).
    if (DotProductPass::appliesTo(STI))
      MPM.addPass(createModuleToFunctionPassAdaptor(DotProductPass(STI)));
    if (!std::getenv("WEFT_NO_ROW_INTERLEAVE"))
      MPM.addPass(createModuleToFunctionPassAdaptor(RowInterleavePass()));
    // A launch compiled for streaming stores (StreamingStores.h) makes its
    // aligned whole-vector stores non-temporal, once they are final.
    MPM.addPass(createModuleToFunctionPassAdaptor(StreamingStorePass()));
    // A kernel with barriers fetches the __global memory it reads a few
    // groups ahead (WEFT_NO_GROUP_PREFETCH=1 keeps it from doing so).
    if (!std::getenv("WEFT_NO_GROUP_PREFETCH"))
      MPM.addPass(createModuleToFunctionPassAdaptor(GroupPrefetchPass()));
  });
  ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  MPM.run(M, MAM);
}

size_t KernelPipeline::globalVariableSize(const Module &M) {
  size_t Size = 0;
  for (const GlobalVariable &GV : M.globals())
    if (GV.getAddressSpace() == addrspace::Global && !GV.isDeclaration())
      Size += M.getDataLayout().getTypeAllocSize(GV.getValueType());
  return Size;
}

bool KernelPipeline::run(Module &M, std::vector<rt::KernelDesc> &Kernels, std::string &Log) {
  if (!prepare(M, Kernels, Log))
    return false;
  if (!OptDisable)
    optimize(M, TM);
  return verify(M, "optimization", Log);
}

bool KernelPipeline::prepare(Module &M, std::vector<rt::KernelDesc> &Kernels, std::string &Log) {
  if (!linkBuiltins(M, Log))
    return false;
  // While kernels still have the SPIR kernel calling convention.
  if (!DeviceEnqueuePass::nameBlockKernels(M, Log))
    return false;
  HostTarget::retarget(M, TM);
  for (Function &F : M)
    if (WorkItemFunctionPass::isKernel(F))
      Kernels.push_back(KernelDescBuilder::describe(F, KernelArgInfo));
  for (const rt::KernelDesc &D : Kernels)
    if (D.RequiredSubGroupSize != 0 &&
        !is_contained(rt::SubGroupSizes, size_t(D.RequiredSubGroupSize))) {
      Log += "error: kernel '" + D.Name + "' requires sub-groups of " +
             std::to_string(D.RequiredSubGroupSize) +
             " work-items; the device's sizes (CL_DEVICE_SUB_GROUP_SIZES_INTEL) are";
      for (size_t N : rt::SubGroupSizes)
        Log += " " + std::to_string(N);
      Log += "\n";
      return false;
    }
  if (!runWorkGroupPasses(M, Log))
    return false;
  for (rt::KernelDesc &D : Kernels) {
    Function *WG = M.getFunction(wi::WorkGroupPrefix + D.Name);
    if (!WG) {
      Log += "error: internal compiler error: no work-group function for kernel '" + D.Name + "'\n";
      return false;
    }
    D.StaticLocalSize = wi::sizeAttr(*WG, wi::LocalSizeAttr);
    D.PrivateFrameSize = wi::sizeAttr(*WG, wi::FrameSizeAttr);
    D.PrivateMemSize = wi::sizeAttr(*WG, wi::PrivateSizeAttr);
    D.UsesPrintf = WG->hasFnAttribute(wi::PrintfAttr);
    D.SubGroupSize = wi::subGroupSize(*WG);
    D.UsesDeviceEnqueue = WG->hasFnAttribute(DeviceEnqueuePass::UsesAttr);
    D.MayWait = mayWait(*WG);
    D.GlobalStoreBytes = globalStoreBytes(*WG);
    D.ConditionArgs = conditionArguments(*WG);
    D.GroupFree = !WG->hasFnAttribute(wi::GroupShapeAttr) && D.PrivateFrameSize == 0 &&
                  D.StaticLocalSize == 0 && !D.UsesSubGroups && !D.UsesDeviceEnqueue &&
                  std::none_of(D.Args.begin(), D.Args.end(), [](const rt::KernelArgDesc &A) {
                    return A.Kind == rt::ArgKind::LocalPointer;
                  });
    ImageDescriptorPass::run(*WG, D);
  }
  // WEFT_DUMP_IR=pre: the module as O3 gets it, to replay O3 with opt's
  // remarks (-pass-remarks-missed=loop-vectorize) in compiler work.
  if (const char *Dump = std::getenv("WEFT_DUMP_IR"); Dump && StringRef(Dump) == "pre")
    M.print(errs(), nullptr);
  return true;
}

bool KernelPipeline::verifyOptimized(Module &M, std::string &Log) {
  return verify(M, "optimization", Log);
}

} // namespace weft::compiler
