// Host target setup. Only LLVMInitializeNative* is called: no command-line
// option parsing and no other process-wide LLVM state is touched, because
// other OpenCL implementations (PoCL) may share libLLVM in this process.
#include "compiler/HostTarget.h"

#include <llvm/IR/Instructions.h>
#include <llvm/Support/TargetSelect.h>

#include <mutex>

using namespace llvm;

namespace weft::compiler {

void HostTarget::initialize() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
  });
}

std::optional<orc::JITTargetMachineBuilder> HostTarget::builder(std::string &Why) {
  initialize();
  Expected<orc::JITTargetMachineBuilder> JTMB = orc::JITTargetMachineBuilder::detectHost();
  if (!JTMB) {
    Why = toString(JTMB.takeError());
    return std::nullopt;
  }
  JTMB->setCodeGenOptLevel(CodeGenOpt::Aggressive);
  return std::move(*JTMB);
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
