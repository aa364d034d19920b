#include "compiler/AddressSpaceAA.h"

#include "compiler/AddressSpace.h"

using namespace llvm;

namespace weft::compiler {

AnalysisKey AddressSpaceAA::Key;

bool AddressSpaceAAResult::disjoint(unsigned AddrSpaceA, unsigned AddrSpaceB) {
  auto Named = [](unsigned AS) {
    return AS == addrspace::Global || AS == addrspace::Constant || AS == addrspace::Local;
  };
  return AddrSpaceA != AddrSpaceB && Named(AddrSpaceA) && Named(AddrSpaceB);
}

AliasResult AddressSpaceAAResult::alias(const MemoryLocation &A, const MemoryLocation &B,
                                        AAQueryInfo &AAQI) {
  if (disjoint(A.Ptr->getType()->getPointerAddressSpace(),
               B.Ptr->getType()->getPointerAddressSpace()))
    return AliasResult::NoAlias;
  return AAResultBase::alias(A, B, AAQI);
}

} // namespace weft::compiler
