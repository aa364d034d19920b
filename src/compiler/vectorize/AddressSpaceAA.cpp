#include "compiler/vectorize/AddressSpaceAA.h"

#include "compiler/AddressSpace.h"

using namespace llvm;

namespace weft::compiler {

AnalysisKey AddressSpaceAA::Key;

namespace {

bool named(unsigned AS) {
  return AS == addrspace::Private || AS == addrspace::Global || AS == addrspace::Constant ||
         AS == addrspace::Local;
}

/// Whether two accesses in these address spaces can never overlap.
bool disjoint(unsigned A, unsigned B) { return A != B && named(A) && named(B); }

} // namespace

AliasResult AddressSpaceAAResult::alias(const MemoryLocation &A, const MemoryLocation &B,
                                        AAQueryInfo &AAQI) {
  if (disjoint(A.Ptr->getType()->getPointerAddressSpace(),
               B.Ptr->getType()->getPointerAddressSpace()))
    return AliasResult::NoAlias;
  return AAResultBase::alias(A, B, AAQI);
}

} // namespace weft::compiler
