// DotProductPass (see the header).
//
// Algorithm. A dot product is four products, one per byte position K of
// two 32-bit lanes X and Y, each byte widened the same way at every K:
//
//   sext byte K:  ashr (shl X, 24 - 8K), 24   (K = 3: ashr X, 24)
//                 or sext (trunc (lshr X, 8K) to i8)
//   zext byte K:  and (lshr X, 8K), 255       (K = 0: and X, 255; K = 3: lshr X, 24)
//                 or lshr (shl X, 24 - 8K), 24, or zext (trunc (lshr X, 8K) to i8)
//
// (the forms InstCombine leaves of IntegerDotProduct.cl's byteS and byteU,
// on i32 or on vectors of i32). For each tree of adds (the adds whose only
// use is another add of the tree, in one block) the pass gathers its
// leaves, picks out the products of two widened bytes of the same K,
// groups them by (X, Y, signedness) and takes every group holding all four
// positions once. The other leaves become the accumulator, and each group
// adds its dot product to it:
//
//   Before (vectorized dot(uchar4, char4) plus c):
//     %a0 = and <16 x i32> %x, 255            %b0 = ashr (shl %y, 24), 24
//     %p0 = mul <16 x i32> %a0, %b0           ... %p1, %p2, %p3 likewise
//     %s  = add (add (add %p0, %p1), (add %p2, %p3)), %c
//   After:
//     %s  = call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(%c, %x, %y)
//
// vpdpbusd multiplies an unsigned byte by a signed one. The other mixes
// take a second instruction, the bias of a flipped top bit computed apart:
//   signed by signed:     vpdpbusd(c, X ^ 0x80808080, Y) - vpdpbusd(0, 0x80808080, Y)
//                         (the first counts each X byte 128 too high, the second
//                         is those 128s times the Y bytes)
//   unsigned by unsigned: vpdpbusd(c, X, Y ^ 0x80808080) - vpdpbusd(0, X, 0x80808080)
//                         (the first counts each Y byte 128 too low, the second is
//                         -128 times the X bytes)
// Each sum is exact in 32 bits (4 * 255 * 255 at most), so the wrapping
// arithmetic gives the tree's value exactly. A saturating add of exactly
// one mixed dot product and an accumulator, llvm.sadd.sat (dot_acc_sat of
// uchar4 and char4), is vpdpbusds(acc, X, Y): it saturates the exact sum,
// as the built-in does. The other saturating forms keep their
// llvm.sadd.sat / llvm.uadd.sat around the rewritten dot product.
//
// Widths: a vector of 4, 8 or 16 lanes is one instruction where the CPU
// has that width; other widths are cut into the widest it has, or padded
// with zero lanes; a scalar takes lane 0 of a 128-bit register.
//
// Runs after the vectorizers (the trees are only whole, and only wide,
// once they are done), on every function.
//
// Limits: a tree whose products have other uses still becomes the
// instructions (the products stay for those uses); products of the same
// bytes split over two trees (an add with two uses between them) are not
// joined; only the byte forms above are recognized.
#include "compiler/vectorize/DotProductPass.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Transforms/Utils/Local.h>

#include <cstdlib>
#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft::compiler {

namespace {

/// Byte K of the 32-bit lanes of X, sign- or zero-extended.
struct Byte {
  Value *X;
  unsigned K;
  bool Signed;
};

/// Whether V (of 32-bit lanes) is a widened byte, and which.
std::optional<Byte> matchByte(Value *V) {
  Value *X;
  const APInt *Shl, *Shr;
  // ashr (shl X, 24 - 8K), 24 and lshr (shl X, 24 - 8K), 24.
  if (match(V, m_AShr(m_Shl(m_Value(X), m_APInt(Shl)), m_SpecificInt(24))) ||
      match(V, m_LShr(m_Shl(m_Value(X), m_APInt(Shl)), m_SpecificInt(24)))) {
    const uint64_t S = Shl->getZExtValue();
    if (S != 8 && S != 16 && S != 24)
      return std::nullopt;
    return Byte{X, unsigned(3 - S / 8), cast<Instruction>(V)->getOpcode() == Instruction::AShr};
  }
  if (match(V, m_AShr(m_Value(X), m_SpecificInt(24))))
    return Byte{X, 3, true};
  if (match(V, m_LShr(m_Value(X), m_SpecificInt(24))))
    return Byte{X, 3, false};
  // and (lshr X, 8K), 255 and and X, 255.
  if (match(V, m_And(m_LShr(m_Value(X), m_APInt(Shr)), m_SpecificInt(255)))) {
    const uint64_t S = Shr->getZExtValue();
    if (S != 8 && S != 16 && S != 24)
      return std::nullopt;
    return Byte{X, unsigned(S / 8), false};
  }
  if (match(V, m_And(m_Value(X), m_SpecificInt(255))))
    return Byte{X, 0, false};
  // sext / zext (trunc (lshr X, 8K) to i8).
  Value *T;
  const bool Signed = match(V, m_SExt(m_Value(T)));
  if ((Signed || match(V, m_ZExt(m_Value(T)))) && T->getType()->getScalarSizeInBits() == 8) {
    if (match(T, m_Trunc(m_LShr(m_Value(X), m_APInt(Shr))))) {
      const uint64_t S = Shr->getZExtValue();
      if (S != 8 && S != 16 && S != 24)
        return std::nullopt;
      return Byte{X, unsigned(S / 8), Signed};
    }
    if (match(T, m_Trunc(m_Value(X))))
      return Byte{X, 0, Signed};
  }
  return std::nullopt;
}

/// The kinds of dot product, by the signedness of X's and Y's bytes (for
/// a mixed one, X holds the unsigned bytes).
enum class Kind { UnsignedBySigned, SignedBySigned, UnsignedByUnsigned };

/// One product of a tree, byte K of X times byte K of Y.
struct Product {
  Value *X, *Y;
  Kind Of;
  unsigned K;
};

/// Whether Leaf is such a product (both bytes of one position K; for a
/// mixed one the operands in the order Kind names them, else as the
/// multiply has them).
std::optional<Product> matchProduct(Value *Leaf) {
  Value *L, *R;
  if (!match(Leaf, m_Mul(m_Value(L), m_Value(R))))
    return std::nullopt;
  std::optional<Byte> A = matchByte(L), B = matchByte(R);
  if (!A || !B || A->K != B->K || A->X->getType() != Leaf->getType() ||
      B->X->getType() != Leaf->getType())
    return std::nullopt;
  if (A->Signed != B->Signed) {
    if (A->Signed)
      std::swap(A, B);
    return Product{A->X, B->X, Kind::UnsignedBySigned, A->K};
  }
  return Product{A->X, B->X, A->Signed ? Kind::SignedBySigned : Kind::UnsignedByUnsigned, A->K};
}

/// Whether V is an add whose one use is the add User of the same block:
/// an inner node of User's tree.
bool innerAdd(Value *V, const Instruction &User) {
  auto *I = dyn_cast<BinaryOperator>(V);
  return I && I->getOpcode() == Instruction::Add && I->hasOneUse() &&
         I->getParent() == User.getParent();
}

/// The leaves of the add tree rooted at Root.
SmallVector<Value *, 8> leavesOf(Instruction &Root) {
  SmallVector<Value *, 8> Leaves;
  SmallVector<Instruction *, 8> Work = {&Root};
  while (!Work.empty()) {
    Instruction *Node = Work.pop_back_val();
    for (Value *Op : Node->operands()) {
      if (innerAdd(Op, *Node))
        Work.push_back(cast<Instruction>(Op));
      else
        Leaves.push_back(Op);
    }
  }
  return Leaves;
}

/// An add that no add of its block takes as its only use: a tree's root.
bool isAddRoot(const Instruction &I) {
  if (I.getOpcode() != Instruction::Add || I.getType()->getScalarSizeInBits() != 32)
    return false;
  if (!I.hasOneUse())
    return true;
  auto *User = dyn_cast<BinaryOperator>(I.user_back());
  return !(User && User->getOpcode() == Instruction::Add && User->getParent() == I.getParent());
}

/// A dot product found in a tree: its operands and kind.
struct Dot {
  Value *X, *Y;
  Kind Of;
};

/// Splits Leaves into the dot products they hold (every group of four
/// products of all positions) and the rest.
void findDots(ArrayRef<Value *> Leaves, SmallVectorImpl<Dot> &Dots,
              SmallVectorImpl<Value *> &Rest) {
  struct Group {
    Dot D;
    Value *ByPosition[4] = {nullptr, nullptr, nullptr, nullptr};
  };
  MapVector<std::tuple<Value *, Value *, unsigned>, Group> Groups; // by (X, Y, Kind)
  for (Value *Leaf : Leaves) {
    std::optional<Product> P = matchProduct(Leaf);
    if (!P) {
      Rest.push_back(Leaf);
      continue;
    }
    // Products of one kind of sign on both sides group whichever way
    // round their multiplies have the operands: the first one's order.
    if (P->Of != Kind::UnsignedBySigned && !Groups.count({P->X, P->Y, unsigned(P->Of)}) &&
        Groups.count({P->Y, P->X, unsigned(P->Of)}))
      std::swap(P->X, P->Y);
    Group &G = Groups[{P->X, P->Y, unsigned(P->Of)}];
    G.D = Dot{P->X, P->Y, P->Of};
    if (G.ByPosition[P->K])
      Rest.push_back(Leaf); // the same position twice: the second is an addend
    else
      G.ByPosition[P->K] = Leaf;
  }
  for (auto &[Key, G] : Groups) {
    if (G.ByPosition[0] && G.ByPosition[1] && G.ByPosition[2] && G.ByPosition[3]) {
      Dots.push_back(G.D);
      continue;
    }
    for (Value *Leaf : G.ByPosition)
      if (Leaf)
        Rest.push_back(Leaf);
  }
}

class Rewriter {
public:
  Rewriter(bool V128, bool V256, bool V512) : V128(V128), V256(V256), V512(V512) {}

  /// Rewrites the add tree rooted at Root if it holds dot products.
  bool rewriteTree(Instruction &Root) {
    SmallVector<Dot, 2> Dots;
    SmallVector<Value *, 8> Rest;
    findDots(leavesOf(Root), Dots, Rest);
    if (Dots.empty())
      return false;
    IRBuilder<> B(&Root);
    Value *Acc = nullptr;
    for (Value *Leaf : Rest)
      Acc = Acc ? B.CreateAdd(Acc, Leaf) : Leaf;
    if (!Acc)
      Acc = Constant::getNullValue(Root.getType());
    for (const Dot &D : Dots)
      Acc = addDot(B, Acc, D);
    Acc->takeName(&Root);
    Root.replaceAllUsesWith(Acc);
    return true;
  }

  /// Rewrites llvm.sadd.sat(tree, acc), where the tree is exactly one
  /// unsigned-by-signed dot product, into vpdpbusds.
  bool rewriteSaturating(IntrinsicInst &Sat) {
    for (unsigned Which : {0u, 1u}) {
      auto *Tree = dyn_cast<Instruction>(Sat.getArgOperand(Which));
      if (!Tree || !Tree->hasOneUse() || !isAddRoot(*Tree))
        continue;
      SmallVector<Dot, 1> Dots;
      SmallVector<Value *, 4> Rest;
      findDots(leavesOf(*Tree), Dots, Rest);
      if (Dots.size() != 1 || !Rest.empty() || Dots[0].Of != Kind::UnsignedBySigned)
        continue;
      IRBuilder<> B(&Sat);
      Value *R = vnni(B, /*Saturate=*/true, Sat.getArgOperand(1 - Which), Dots[0].X, Dots[0].Y);
      R->takeName(&Sat);
      Sat.replaceAllUsesWith(R);
      return true;
    }
    return false;
  }

private:
  /// Acc plus the dot product D.
  Value *addDot(IRBuilder<> &B, Value *Acc, const Dot &D) {
    Constant *Flip = ConstantInt::get(Acc->getType(), 0x80808080u);
    switch (D.Of) {
    case Kind::UnsignedBySigned:
      return vnni(B, false, Acc, D.X, D.Y);
    case Kind::SignedBySigned: {
      // X's bytes plus 128 are unsigned: that counts 128 * (Y's bytes) too much.
      Value *Biased = vnni(B, false, Acc, B.CreateXor(D.X, Flip), D.Y);
      Value *Bias = vnni(B, false, Constant::getNullValue(Acc->getType()), Flip, D.Y);
      return B.CreateSub(Biased, Bias);
    }
    case Kind::UnsignedByUnsigned: {
      // Y's bytes minus 128 are signed: that counts 128 * (X's bytes) too little.
      Value *Biased = vnni(B, false, Acc, D.X, B.CreateXor(D.Y, Flip));
      Value *Bias = vnni(B, false, Constant::getNullValue(Acc->getType()), D.X, Flip);
      return B.CreateSub(Biased, Bias);
    }
    }
    llvm_unreachable("every kind is handled");
  }

  /// Acc + the unsigned-by-signed dot products of the lanes of U and S,
  /// saturating or not, in the widths the CPU has.
  Value *vnni(IRBuilder<> &B, bool Saturate, Value *Acc, Value *U, Value *S) {
    auto *VT = dyn_cast<FixedVectorType>(Acc->getType());
    const unsigned Lanes = VT ? VT->getNumElements() : 1;
    const unsigned Widest = V512 ? 16 : V256 ? 8 : 4;
    // The width of the pieces: the lanes, or the narrowest width the CPU
    // has that holds them, or its widest.
    unsigned Piece = Widest;
    for (unsigned W : {4u, 8u, 16u})
      if (has(W) && W >= Lanes) {
        Piece = W;
        break;
      }
    auto *PieceTy = FixedVectorType::get(B.getInt32Ty(), Piece);
    const Intrinsic::ID ID = intrinsic(Saturate, Piece);
    if (!VT) {
      // A scalar: lane 0 of a register of zeros.
      Constant *Zero = Constant::getNullValue(PieceTy);
      Value *R = B.CreateIntrinsic(ID, {},
                                   {B.CreateInsertElement(Zero, Acc, uint64_t(0)),
                                    B.CreateInsertElement(Zero, U, uint64_t(0)),
                                    B.CreateInsertElement(Zero, S, uint64_t(0))});
      return B.CreateExtractElement(R, uint64_t(0));
    }
    if (Lanes == Piece)
      return B.CreateIntrinsic(ID, {}, {Acc, U, S});
    // Pieces of Piece lanes (zeros past the last lane), their results
    // joined.
    SmallVector<Value *, 4> Results;
    for (unsigned First = 0; First < Lanes; First += Piece) {
      auto pieceOf = [&](Value *V) {
        SmallVector<int, 16> Mask;
        for (unsigned L = 0; L < Piece; ++L)
          Mask.push_back(First + L < Lanes ? int(First + L) : int(Lanes));
        return B.CreateShuffleVector(V, Constant::getNullValue(V->getType()), Mask);
      };
      Results.push_back(B.CreateIntrinsic(ID, {}, {pieceOf(Acc), pieceOf(U), pieceOf(S)}));
    }
    // Concatenate, then keep the first Lanes lanes.
    while (Results.size() > 1) {
      SmallVector<Value *, 4> Joined;
      for (size_t I = 0; I + 1 < Results.size(); I += 2) {
        const unsigned N = cast<FixedVectorType>(Results[I]->getType())->getNumElements();
        SmallVector<int, 32> Mask;
        for (unsigned L = 0; L < 2 * N; ++L)
          Mask.push_back(int(L));
        Joined.push_back(B.CreateShuffleVector(Results[I], Results[I + 1], Mask));
      }
      if (Results.size() % 2) {
        // An odd piece out: widen it with zeros to its neighbours' width.
        Value *Last = Results.back();
        const unsigned N = cast<FixedVectorType>(Last->getType())->getNumElements();
        SmallVector<int, 32> Mask;
        for (unsigned L = 0; L < 2 * N; ++L)
          Mask.push_back(int(L < N ? L : N));
        Joined.push_back(
            B.CreateShuffleVector(Last, Constant::getNullValue(Last->getType()), Mask));
      }
      Results = std::move(Joined);
    }
    SmallVector<int, 16> Keep;
    for (unsigned L = 0; L < Lanes; ++L)
      Keep.push_back(int(L));
    return B.CreateShuffleVector(Results[0], Keep);
  }

  bool has(unsigned Width) const { return Width == 4 ? V128 : Width == 8 ? V256 : V512; }

  static Intrinsic::ID intrinsic(bool Saturate, unsigned Width) {
    switch (Width) {
    case 4:
      return Saturate ? Intrinsic::x86_avx512_vpdpbusds_128 : Intrinsic::x86_avx512_vpdpbusd_128;
    case 8:
      return Saturate ? Intrinsic::x86_avx512_vpdpbusds_256 : Intrinsic::x86_avx512_vpdpbusd_256;
    default:
      return Saturate ? Intrinsic::x86_avx512_vpdpbusds_512 : Intrinsic::x86_avx512_vpdpbusd_512;
    }
  }

  const bool V128, V256, V512;
};

} // namespace

DotProductPass::DotProductPass(const MCSubtargetInfo &STI) {
  const bool Vl = STI.checkFeatures("+avxvnni") || STI.checkFeatures("+avx512vnni,+avx512vl");
  Vnni128 = Vnni256 = Vl;
  Vnni512 = STI.checkFeatures("+avx512vnni");
}

bool DotProductPass::appliesTo(const MCSubtargetInfo &STI) {
  if (const char *Off = std::getenv("WEFT_NO_DOT_PRODUCT"); Off && *Off && *Off != '0')
    return false;
  return STI.checkFeatures("+avxvnni") || STI.checkFeatures("+avx512vnni,+avx512vl");
}

PreservedAnalyses DotProductPass::run(Function &F, FunctionAnalysisManager &) {
  if (!Vnni128)
    return PreservedAnalyses::all();
  Rewriter R(Vnni128, Vnni256, Vnni512);
  // Saturating additions first: their trees are whole dot products, which
  // the tree rewrite would take on its own otherwise.
  SmallVector<IntrinsicInst *, 8> Saturating;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I); II && II->getIntrinsicID() == Intrinsic::sadd_sat &&
                                                II->getType()->getScalarSizeInBits() == 32)
      Saturating.push_back(II);
  // What a rewrite replaced is deleted (with what only it used) once the
  // rewrites of its kind are done: a tree may be a leaf of another.
  bool Changed = false;
  SmallVector<WeakTrackingVH, 16> Replaced;
  for (IntrinsicInst *Sat : Saturating)
    if (R.rewriteSaturating(*Sat))
      Replaced.push_back(Sat);
  Changed |= !Replaced.empty();
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Replaced);
  SmallVector<Instruction *, 16> Roots;
  for (Instruction &I : instructions(F))
    if (isAddRoot(I))
      Roots.push_back(&I);
  for (Instruction *Root : Roots)
    if (R.rewriteTree(*Root))
      Replaced.push_back(Root);
  Changed |= !Replaced.empty();
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Replaced);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft::compiler
