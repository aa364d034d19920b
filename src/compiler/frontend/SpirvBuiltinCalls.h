// SpirvBuiltinCalls: the builtin calls LLVMSPIRVLib 15 makes from SPIR-V
// instructions that no OpenCL C builtin spells the same way, rewritten in
// the translated module into calls of the OpenCL C builtins Weft defines
// (or into plain IR), so that an IL program reaches the same library code
// as OpenCL C.
//
// SPV_KHR_integer_dot_product: the translator reads OpSDot, OpUDot,
// OpSUDot and their AccSat forms as calls of `__spirv_<Op>KHR_R<type>`
// (mangled), with the operands as they are in the module: two <4 x i8>
// (DotProductInput4x8Bit), or two i32 and the PackedVectorFormat operand
// (DotProductInput4x8BitPacked), or any other integer vectors
// (DotProductInputAll), and a result of any width at least the
// components':
//
//   %d = call i32 @_Z20__spirv_SDotKHR_Rintiii(i32 %a, i32 %b, i32 0)
//     -> %d = call i32 @_Z20dot_4x8packed_ss_intjj(i32 %a, i32 %b)
//   %d = call i32 @_Z27__spirv_SUDotAccSatKHR_RintDv4_cS_i(<4 x i8> %a, <4 x i8> %b, i32 %c)
//     -> %ai = bitcast <4 x i8> %a to i32, %bi likewise
//        %d = call i32 @_Z28dot_acc_sat_4x8packed_su_intjji(i32 %ai, i32 %bi, i32 %c)
//   %d = call i64 @_Z21__spirv_SDotKHR_Rlongiii(i32 %a, i32 %b, i32 0)
//     -> %d = sext (call i32 @_Z20dot_4x8packed_ss_intjj(i32 %a, i32 %b)) to i64
//
// Four 8-bit components take the packed builtins (IntegerDotProduct.cl),
// whose 32-bit sum is exact: a narrower result is its low bits (SPIR-V's
// definition), a wider one its extension, and an accumulating form of
// another width than 32 bits saturates the exact sum plus the accumulator
// to the result's range. Other vectors are extended to the result's width,
// multiplied and summed in IR (llvm.vector.reduce.add), the accumulating
// forms through llvm.sadd.sat / llvm.uadd.sat. OpSUDot's first operand is
// the signed one; the signed and mixed forms saturate as signed.
//
// SPV_KHR_bit_instructions: OpBitFieldInsert and the OpBitField*Extract
// instructions become the cl_khr_extended_bit_ops builtins, but with
// Offset and Count of whatever integer type the module gave them (SPIR-V
// allows any), which names a function no library defines
// (`_Z15bitfield_insertiimt` for an i64 offset and an i16 count); those
// calls take the builtin with uint offset and count instead (values beyond
// 32 bits are undefined for these instructions anyway).
//
// Only declarations are rewritten: a function of the module itself with
// such a name keeps its body and its calls.
#pragma once

#include <llvm/IR/Module.h>

#include <string>

namespace weft::compiler {

/// Rewrites M's calls as described above. Returns why a call cannot be
/// rewritten (a form SPIR-V does not allow, which validation let through),
/// or "".
std::string lowerSpirvBuiltinCalls(llvm::Module &M);

} // namespace weft::compiler
