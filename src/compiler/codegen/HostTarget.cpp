// Host target setup. Only LLVMInitializeNative* is called: no command-line
// option parsing and no other process-wide LLVM state is touched, because
// other OpenCL implementations (PoCL) may share libLLVM in this process.
//
// Whether the host can run a CPU's code is decided on LLVM's own lists: the
// ISA features X86TargetParser gives the CPU (its implied ones included,
// tuning flags excluded) against those sys::getHostCPUFeatures reads from
// cpuid. A feature the host's list does not name at all (x87, which every
// x86-64 CPU has) does not count against it.
#include "compiler/codegen/HostTarget.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/Triple.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/X86TargetParser.h>

#include <cstdlib>
#include <mutex>

using namespace llvm;

namespace weft::compiler {

namespace {

bool hostIsX86_64() { return Triple(sys::getProcessTriple()).getArch() == Triple::x86_64; }

/// Why Cpu cannot be compiled for at all ("" if it can).
std::string whyUnknown(const std::string &Cpu) {
  if (!hostIsX86_64())
    return "CPU names are for x86-64 hosts; this host is " + sys::getProcessTriple();
  if (X86::parseArchX86(Cpu, /*Only64Bit=*/true) == X86::CK_None)
    return "'" + Cpu +
           "' is not an x86-64 CPU LLVM 15 knows (x86-64-v2, x86-64-v3, x86-64-v4, or a CPU "
           "name such as haswell, skylake-avx512, znver3)";
  return "";
}

} // namespace

void HostTarget::initialize() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
  });
}

std::string HostTarget::requestedCpu() {
  const char *Value = std::getenv(CpuVariable);
  return Value ? Value : "";
}

std::string HostTarget::whyHostCannotRun(const std::string &Cpu) {
  if (std::string Why = whyUnknown(Cpu); !Why.empty())
    return Why;
  StringMap<bool> Host;
  if (!sys::getHostCPUFeatures(Host))
    return "the host's CPU features cannot be read";
  SmallVector<StringRef, 64> Needed;
  X86::getFeaturesForCPU(Cpu, Needed);
  std::string Missing;
  for (StringRef Feature : Needed)
    if (auto It = Host.find(Feature); It != Host.end() && !It->second)
      Missing += " " + Feature.str();
  return Missing.empty() ? "" : "the host's CPU lacks" + Missing;
}

std::string HostTarget::hostLevel() {
  std::string Best;
  for (const char *Level : Levels)
    if (whyHostCannotRun(Level).empty())
      Best = Level;
  return Best;
}

std::optional<orc::JITTargetMachineBuilder> HostTarget::builderFor(const std::string &Cpu,
                                                                   std::string &Why) {
  initialize();
  if (Cpu.empty()) {
    Expected<orc::JITTargetMachineBuilder> JTMB = orc::JITTargetMachineBuilder::detectHost();
    if (!JTMB) {
      Why = toString(JTMB.takeError());
      return std::nullopt;
    }
    JTMB->setCodeGenOptLevel(CodeGenOpt::Aggressive);
    return std::move(*JTMB);
  }
  if (Why = whyUnknown(Cpu); !Why.empty())
    return std::nullopt;
  // The CPU's own features, spelled out as the host's are, since passes
  // read a function's "target-features" (ChainInterleavePass).
  orc::JITTargetMachineBuilder JTMB{Triple(sys::getProcessTriple())};
  JTMB.setCPU(Cpu);
  SmallVector<StringRef, 64> Features;
  X86::getFeaturesForCPU(Cpu, Features);
  for (StringRef Feature : Features)
    JTMB.getFeatures().AddFeature(Feature);
  JTMB.setCodeGenOptLevel(CodeGenOpt::Aggressive);
  return JTMB;
}

std::optional<orc::JITTargetMachineBuilder> HostTarget::builder(std::string &Why) {
  std::string Cpu = requestedCpu();
  if (!Cpu.empty()) {
    if (std::string Refused = whyHostCannotRun(Cpu); !Refused.empty()) {
      Why = std::string(CpuVariable) + "=" + Cpu + " is refused: " + Refused;
      return std::nullopt;
    }
  }
  return builderFor(Cpu, Why);
}

void HostTarget::retarget(Module &M, TargetMachine &TM) {
  M.setTargetTriple(TM.getTargetTriple().str());
  M.setDataLayout(TM.createDataLayout());
  std::string CPU = TM.getTargetCPU().str();
  std::string Features = TM.getTargetFeatureString().str();
  for (Function &F : M) {
    F.setCallingConv(CallingConv::C);
    if (!F.isDeclaration()) {
      F.addFnAttr("target-cpu", CPU);
      F.addFnAttr("target-features", Features);
    }
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *Call = dyn_cast<CallBase>(&I))
          Call->setCallingConv(CallingConv::C);
  }
}

} // namespace weft::compiler
