// The translator's builtin calls rewritten; see SpirvBuiltinCalls.h.
#include "compiler/frontend/SpirvBuiltinCalls.h"

#include "compiler/OpenClNames.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <optional>
#include <vector>

using namespace llvm;

namespace weft::compiler {

namespace {

/// The signedness of a dot product's two operands, first then second.
enum class Signs { SS, UU, SU };

struct DotOp {
  Signs S;
  bool AccSat;
};

/// The dot product a translator call stands for, from its demangled name
/// (`__spirv_SUDotAccSatKHR_Rint`).
std::optional<DotOp> dotOpOf(StringRef Base) {
  if (!Base.consume_front("__spirv_"))
    return std::nullopt;
  size_t End = Base.find("KHR_R");
  if (End == StringRef::npos)
    return std::nullopt;
  return StringSwitch<std::optional<DotOp>>(Base.take_front(End))
      .Case("SDot", DotOp{Signs::SS, false})
      .Case("UDot", DotOp{Signs::UU, false})
      .Case("SUDot", DotOp{Signs::SU, false})
      .Case("SDotAccSat", DotOp{Signs::SS, true})
      .Case("UDotAccSat", DotOp{Signs::UU, true})
      .Case("SUDotAccSat", DotOp{Signs::SU, true})
      .Default(std::nullopt);
}

/// The Itanium name of a function of OpenCL C named Name with parameters
/// already mangled as Params.
std::string mangled(StringRef Name, StringRef Params) {
  return "_Z" + std::to_string(Name.size()) + Name.str() + Params.str();
}

/// A call of the library function Name of type Ty at B's insertion point,
/// made like Like (its calling convention: the translator's spir_func,
/// which the library's definitions share).
Value *callLibrary(IRBuilder<> &B, const CallInst &Like, const std::string &Name, FunctionType *Ty,
                   ArrayRef<Value *> Args) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Callee = M.getOrInsertFunction(Name, Ty);
  if (auto *F = dyn_cast<Function>(Callee.getCallee())) {
    F->setCallingConv(Like.getCallingConv());
    F->setDoesNotAccessMemory();
    F->setDoesNotThrow();
  }
  CallInst *Call = B.CreateCall(Callee, Args);
  Call->setCallingConv(Like.getCallingConv());
  return Call;
}

/// A dot product of four 8-bit components on each side, A and B packed
/// into i32s, through the packed builtins of IntegerDotProduct.cl.
Value *dot4x8(IRBuilder<> &B, const CallInst &Call, DotOp Op, Value *A, Value *Bv, Value *Acc) {
  const char *Tag = Op.S == Signs::SS ? "ss_int" : Op.S == Signs::UU ? "uu_uint" : "su_int";
  const bool Unsigned = Op.S == Signs::UU;
  auto *I32 = B.getInt32Ty();
  auto *RTy = cast<IntegerType>(Call.getType());
  const unsigned Width = RTy->getBitWidth();
  if (Op.AccSat && Width == 32)
    return callLibrary(
        B, Call, mangled(std::string("dot_acc_sat_4x8packed_") + Tag, Unsigned ? "jjj" : "jji"),
        FunctionType::get(I32, {I32, I32, I32}, false), {A, Bv, Acc});
  // The exact sum (4 * 255 * 255 at most: no 32-bit form overflows).
  Value *Sum = callLibrary(B, Call, mangled(std::string("dot_4x8packed_") + Tag, "jj"),
                           FunctionType::get(I32, {I32, I32}, false), {A, Bv});
  if (!Op.AccSat) {
    // Narrower: the low bits of the exact sum, as SPIR-V defines them.
    if (Width <= 32)
      return B.CreateTrunc(Sum, RTy);
    return Unsigned ? B.CreateZExt(Sum, RTy) : B.CreateSExt(Sum, RTy);
  }
  if (Width > 32) {
    Value *Wide = Unsigned ? B.CreateZExt(Sum, RTy) : B.CreateSExt(Sum, RTy);
    return B.CreateBinaryIntrinsic(Unsigned ? Intrinsic::uadd_sat : Intrinsic::sadd_sat, Wide, Acc);
  }
  // An 8- or 16-bit accumulator: the exact sum plus it (within 32 bits),
  // clamped to the result's range, which is what the saturating addition
  // gives whenever the sum itself fits (the only case SPIR-V defines).
  Value *Total = B.CreateAdd(Sum, Unsigned ? B.CreateZExt(Acc, I32) : B.CreateSExt(Acc, I32));
  Value *Clamped;
  if (Unsigned) {
    Clamped = B.CreateBinaryIntrinsic(
        Intrinsic::umin, Total, B.getInt32(uint32_t(APInt::getMaxValue(Width).getZExtValue())));
  } else {
    Clamped = B.CreateBinaryIntrinsic(
        Intrinsic::smin, Total,
        B.getInt32(int32_t(APInt::getSignedMaxValue(Width).getSExtValue())));
    Clamped = B.CreateBinaryIntrinsic(
        Intrinsic::smax, Clamped,
        B.getInt32(int32_t(APInt::getSignedMinValue(Width).getSExtValue())));
  }
  return B.CreateTrunc(Clamped, RTy);
}

/// A dot product of any other integer vectors (DotProductInputAll): the
/// components extended to the result's width, multiplied and summed in
/// IR, which wraps to the low bits of the exact sum.
Value *dotVectors(IRBuilder<> &B, const CallInst &Call, DotOp Op, Value *A, Value *Bv, Value *Acc) {
  auto *VT = cast<FixedVectorType>(A->getType());
  auto *WideTy = FixedVectorType::get(Call.getType(), VT->getNumElements());
  Value *AW = Op.S == Signs::UU ? B.CreateZExt(A, WideTy) : B.CreateSExt(A, WideTy);
  Value *BW = Op.S == Signs::SS ? B.CreateSExt(Bv, WideTy) : B.CreateZExt(Bv, WideTy);
  Value *Sum = B.CreateAddReduce(B.CreateMul(AW, BW));
  if (!Op.AccSat)
    return Sum;
  return B.CreateBinaryIntrinsic(Op.S == Signs::UU ? Intrinsic::uadd_sat : Intrinsic::sadd_sat, Sum,
                                 Acc);
}

/// Rewrites one call of a `__spirv_*Dot*KHR` declaration; "" or why not.
std::string lowerDot(CallInst &Call, DotOp Op) {
  auto *RTy = dyn_cast<IntegerType>(Call.getType());
  const unsigned Operands = Call.arg_size();
  if (!RTy || Operands < 2)
    return "a dot product whose result is not an integer";
  Value *A = Call.getArgOperand(0), *Bv = Call.getArgOperand(1);
  Value *Acc = Op.AccSat && Operands > 2 ? Call.getArgOperand(2) : nullptr;
  if (A->getType() != Bv->getType() || (Op.AccSat && (!Acc || Acc->getType() != RTy)))
    return "a dot product whose operands or accumulator have mismatched types";
  const unsigned Fixed = Op.AccSat ? 3 : 2;
  IRBuilder<> B(&Call);
  auto *I32 = B.getInt32Ty();
  Value *Result = nullptr;
  auto *VT = dyn_cast<FixedVectorType>(A->getType());
  if (A->getType()->isIntegerTy(32)) {
    // Packed operands, then the PackedVectorFormat, of which SPIR-V has
    // one: PackedVectorFormat4x8Bit (0).
    auto *Format =
        Operands == Fixed + 1 ? dyn_cast<ConstantInt>(Call.getArgOperand(Fixed)) : nullptr;
    if (!Format || !Format->isZero())
      return "a dot product of scalar operands without PackedVectorFormat4x8Bit";
    if (RTy->getBitWidth() < 8)
      return "a dot product whose result is narrower than its components";
    Result = dot4x8(B, Call, Op, A, Bv, Acc);
  } else if (VT && VT->getElementType()->isIntegerTy() && Operands == Fixed) {
    if (RTy->getBitWidth() < VT->getScalarSizeInBits())
      return "a dot product whose result is narrower than its components";
    if (VT->getNumElements() == 4 && VT->getElementType()->isIntegerTy(8))
      Result = dot4x8(B, Call, Op, B.CreateBitCast(A, I32), B.CreateBitCast(Bv, I32), Acc);
    else
      Result = dotVectors(B, Call, Op, A, Bv, Acc);
  } else {
    return "a dot product of operands that are neither integer vectors nor packed";
  }
  Result->takeName(&Call);
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
  return "";
}

/// True for the mangling of an integer builtin type (char to ulong).
bool isIntegerTypeCode(char C) { return StringRef("hcatsjiml").contains(C); }

/// Rewrites the calls of bitfield declaration F, whose last two parameters
/// (offset, count) are not both uint, into calls of the uint form.
void lowerBitfield(Function &F) {
  FunctionType *Ty = F.getFunctionType();
  SmallVector<Type *, 4> Params(Ty->params().begin(), Ty->params().end());
  Type *I32 = Type::getInt32Ty(F.getContext());
  Params[Params.size() - 2] = Params[Params.size() - 1] = I32;
  std::string Name = F.getName().drop_back(2).str() + "jj";
  FunctionType *NewTy = FunctionType::get(Ty->getReturnType(), Params, false);
  for (User *U : make_early_inc_range(F.users())) {
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call || Call->getCalledFunction() != &F)
      continue;
    IRBuilder<> B(Call);
    SmallVector<Value *, 4> Args(Call->args());
    for (size_t I = Args.size() - 2; I < Args.size(); ++I)
      Args[I] = B.CreateZExtOrTrunc(Args[I], I32);
    Value *New = callLibrary(B, *Call, Name, NewTy, Args);
    New->takeName(Call);
    Call->replaceAllUsesWith(New);
    Call->eraseFromParent();
  }
}

/// Whether F is a bitfield builtin whose offset and count are integers of
/// another type than uint (and so named in a way no library defines).
bool needsUintOffsets(const Function &F) {
  StringRef Base = demangledBaseName(F.getName());
  if (Base != "bitfield_insert" && Base != "bitfield_extract_signed" &&
      Base != "bitfield_extract_unsigned")
    return false;
  FunctionType *Ty = F.getFunctionType();
  StringRef Name = F.getName();
  if (Ty->getNumParams() < 3 || Name.size() < 2 || !isIntegerTypeCode(Name[Name.size() - 2]) ||
      !isIntegerTypeCode(Name.back()))
    return false;
  Type *Offset = Ty->getParamType(Ty->getNumParams() - 2);
  Type *Count = Ty->getParamType(Ty->getNumParams() - 1);
  return Offset->isIntegerTy() && Count->isIntegerTy() &&
         !(Offset->isIntegerTy(32) && Count->isIntegerTy(32));
}

} // namespace

std::string lowerSpirvBuiltinCalls(Module &M) {
  std::vector<Function *> Dots, Bitfields;
  for (Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic())
      continue;
    if (dotOpOf(demangledBaseName(F.getName())))
      Dots.push_back(&F);
    else if (needsUintOffsets(F))
      Bitfields.push_back(&F);
  }
  for (Function *F : Dots) {
    const DotOp Op = *dotOpOf(demangledBaseName(F->getName()));
    for (User *U : make_early_inc_range(F->users())) {
      auto *Call = dyn_cast<CallInst>(U);
      if (!Call || Call->getCalledFunction() != F)
        continue;
      if (std::string Why = lowerDot(*Call, Op); !Why.empty())
        return Why + " (" + F->getName().str() + ")";
    }
  }
  for (Function *F : Bitfields)
    lowerBitfield(*F);
  for (std::vector<Function *> *List : {&Dots, &Bitfields})
    for (Function *F : *List)
      if (F->use_empty())
        F->eraseFromParent();
  return "";
}

} // namespace weft::compiler
