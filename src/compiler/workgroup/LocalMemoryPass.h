// LocalMemoryPass: static __local variables -> offsets in Ctx->LocalMem.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class LocalMemoryPass : public llvm::PassInfoMixin<LocalMemoryPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

} // namespace weft::compiler
