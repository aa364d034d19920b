// SpirvLowering: a valid SPIR-V module rewritten into the subset that
// LLVMSPIRVLib 15 can decode, with the same meaning.
//
// The translator's decoder knows the instructions of SPIR-V 1.3 and asserts
// on some that SPIR-V 1.1 and 1.4 added (and on every OpCopyMemory). Each of those has an exact
// equivalent in older instructions, so the module is rewritten word by word
// before the translator reads it:
//
//   %b = OpPtrEqual %bool %p %q     ->  %pi = OpConvertPtrToU %intptr %p
//                                       %qi = OpConvertPtrToU %intptr %q
//                                       %b  = OpIEqual %bool %pi %qi
//   (OpPtrNotEqual likewise, with OpINotEqual)
//   %d = OpPtrDiff %T %p %q         ->  ... %bytes = OpISub %intptr %pi %qi
//                                       %one = OpPtrAccessChain %P %null %1
//                                       %size = OpConvertPtrToU %intptr %one
//                                       %d = OpSDiv %T %bytes %size
//   %s = OpSizeOf %uint %p          ->  %one = OpPtrAccessChain %P %null %1
//                                       %s = OpConvertPtrToU %uint %one
//   %r = OpCopyLogical %B %a        ->  member by member: OpCompositeExtract,
//                                       (recursively) copied, OpCompositeInsert
//                                       into an OpUndef %B
//   OpCopyMemory %t %s <t ops> <s ops>
//                                   ->  %v = OpLoad %T %s <s ops>
//                                       OpStore %t %v <t ops>
//   OpCopyMemorySized %t %s %n <t ops> <s ops>
//                                   ->  OpCopyMemorySized %t %s %n <t ops>
//                                       (the source's Volatile bit kept)
//
// The size of a pointee is the address of element 1 of a null pointer, so
// the type layout stays the translator's own. New ids extend the bound;
// the integer type, constants and null pointers the rewrites need are
// declared after the module's other global declarations.
//
// It also removes what carries nothing for execution and the translator
// cannot read (OpDecorateString, OpMemberDecorateString) and zeroes the
// padding after every literal string's terminator (the validator allows
// any padding; the translator asserts on it).
//
// Limits: the input must have passed validation; an OpCopyLogical of an
// array copies it element by element, so its cost grows with the length.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace weft::compiler {

/// True if Opcode is one that lowerSpirv rewrites away.
bool isLoweredSpirvOpcode(uint32_t Opcode);

/// The words of a valid module, rewritten as described above, as bytes.
std::string lowerSpirv(const std::vector<uint32_t> &Words);

} // namespace weft::compiler
