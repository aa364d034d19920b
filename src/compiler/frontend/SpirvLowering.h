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
//   %z = OpConstantNull %scalar     ->  %z = OpConstant %scalar 0 (integers,
//                                       floats), OpConstantFalse (bool)
//   %v = OpCompositeConstruct %vec c..  (in a function)
//                                   ->  %u = OpUndef %vec, then one
//                                       OpCompositeInsert per component (a
//                                       vector constituent's extracted)
//   %r = OpVectorShuffle %T %a %b i..   (a and b of different lengths)
//                                   ->  one OpCompositeExtract per index
//                                       (OpUndef for 0xFFFFFFFF), inserted
//                                       as above
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
// And it takes the functions out of the translator's builtin namespaces.
// The translator names the builtin calls it makes from instructions with
// Itanium-mangled (`_Z...`) or `__spirv_` names, and a module function
// already holding such a name with another type ends it in
// report_fatal_error, which exits the process. A module function whose
// name (its LinkageAttributes name, else its OpName, else its entry-point
// name) begins with either prefix is translated as `__weft_spirv_fn.<id>`;
// restoreSpirvNames gives the names back afterwards (or says why it
// cannot).
//
// Limits: the input must have passed validation; a LinkageAttributes name
// given through a decoration group (OpGroupDecorate) is not renamed; an OpCopyLogical of an
// array copies it element by element, so its cost grows with the length.
#pragma once

#include <llvm/IR/Module.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace weft::compiler {

/// The literal string starting at W[At], and the index of the word after
/// it (W.size() if it has no terminator).
std::pair<std::string, size_t> stringAt(const std::vector<uint32_t> &W, size_t At);

/// Words without the OpenCL.DebugInfo.100 debug information: its import
/// and every OpExtInst of it, which only other debug instructions refer
/// to. The llvm-spirv 15 that makes such modules (clang -g) writes some
/// debug instructions SPIRV-Tools 2023.1 rejects (a function type's void
/// result as OpTypeVoid), so the front end validates and translates the
/// module without them: it runs the same, without source-level debug
/// information. Words of a malformed module come back unchanged, for the
/// validator to reject.
std::vector<uint32_t> withoutDebugInfo(const std::vector<uint32_t> &Words);

/// True if Opcode is one that lowerSpirv rewrites away.
bool isLoweredSpirvOpcode(uint32_t Opcode);

struct LoweredSpirv {
  std::string Bytes;                                      ///< the rewritten module
  std::vector<std::pair<std::string, std::string>> Names; ///< (translated as, original)
};

/// The words of a valid module, rewritten as described above.
LoweredSpirv lowerSpirv(const std::vector<uint32_t> &Words);

/// Gives M's functions the names lowerSpirv took from them. A function
/// whose name the translator has meanwhile given to a builtin declaration
/// of the same type becomes that declaration if it is one itself (an
/// import of the builtin). Returns why a name cannot be given back (the
/// same name for functions of two types, or for two bodies), or "".
std::string restoreSpirvNames(llvm::Module &M, const LoweredSpirv &Lowered);

} // namespace weft::compiler
