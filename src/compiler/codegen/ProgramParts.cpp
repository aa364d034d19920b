#include "compiler/codegen/ProgramParts.h"

#include "compiler/KernelPipeline.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/Transforms/IPO/GlobalDCE.h>

using namespace llvm;

namespace weft::compiler {

namespace {

bool isWorkGroupFunction(const Function &F) {
  return !F.isDeclaration() && F.getName().startswith(wi::WorkGroupPrefix);
}

bool isVariable(const GlobalVariable &GV) {
  return !GV.isDeclaration() && !GV.hasAppendingLinkage() && !GV.isConstant();
}

/// Drops from M every work-group function but Keep (none if null), then
/// what nothing left uses.
void keepOnly(Module &M, const Function *Keep) {
  for (Function &F : make_early_inc_range(M))
    if (isWorkGroupFunction(F) && &F != Keep) {
      F.deleteBody();
      if (F.use_empty())
        F.eraseFromParent();
    }
  ModulePassManager MPM;
  MPM.addPass(GlobalDCEPass());
  KernelPipeline::runModulePasses(M, MPM);
}

} // namespace

void ProgramParts::makeSplittable(Module &M) {
  for (GlobalVariable &GV : M.globals()) {
    if (GV.isDeclaration() || GV.hasAppendingLinkage())
      continue;
    if (GV.isConstant()) {
      GV.setLinkage(GlobalValue::InternalLinkage);
      GV.setComdat(nullptr);
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

bool ProgramParts::keepKernel(Module &M, StringRef WorkGroupName) {
  Function *WG = M.getFunction(WorkGroupName);
  if (!WG || !isWorkGroupFunction(*WG))
    return false;
  for (GlobalVariable &GV : M.globals())
    if (isVariable(GV)) {
      GV.setInitializer(nullptr);
      GV.setLinkage(GlobalValue::ExternalLinkage);
    }
  keepOnly(M, WG);
  return true;
}

bool ProgramParts::keepVariables(Module &M) {
  keepOnly(M, nullptr);
  return any_of(M.globals(), isVariable);
}

} // namespace weft::compiler
