#include "compiler/CrashRecovery.h"

#include <llvm/Support/CrashRecoveryContext.h>

#include <mutex>

namespace weft::compiler {

bool runRecoverably(const std::function<void()> &Fn) {
  static std::once_flag Once;
  std::call_once(Once, [] { llvm::CrashRecoveryContext::Enable(); });
  llvm::CrashRecoveryContext CRC;
  return CRC.RunSafely(Fn);
}

} // namespace weft::compiler
