// ComponentTransposePass (see the header). In each block, the gathers (or
// scatters) with every lane enabled whose addresses are one vector of
// pointers Root plus a constant offset are grouped by Root. Root must be a
// GEP from one scalar pointer with one vector index, only constants after
// it, its lanes S bytes apart (a constant: the index's lane step, found through adds,
// subtracts, constant multiples and shifts, splats and the vectorizer's
// induction PHIs, times the indexed type's size). When the group's element
// type is E bytes, F = S / E is a power of two, and the offsets cover
// 0, E, ..., (F - 1) E, the group reads (writes) F * VF contiguous
// elements from lane 0 of Root: F vectors of VF lanes. Component c of
// work-item (lane) w is element w * F + c of them.
//
// Before (a float16 In[i], 16 work-items a vector):
//   %root = getelementptr <16 x float>, ptr %In, <16 x i64> %i.lanes
//   %c0  = call @llvm.masked.gather(<16 x ptr> %root, ..., <16 x i1> <true, ...>)
//   %p1  = getelementptr float, <16 x ptr> %root, i64 1
//   %c1  = call @llvm.masked.gather(<16 x ptr> %p1, ...)           ... to %c15
// After:
//   %base = extractelement <16 x ptr> %root, i64 0
//   %m0 = load <16 x float>, ptr %base ... %m15 = load <16 x float>, %base + 15 * 64 bytes
//   %e0 = shufflevector %m0, %m1, <0, 2, ..., 30>      ; even elements
//   %o0 = shufflevector %m0, %m1, <1, 3, ..., 31>      ; odd elements
//   ... the evens and the odds each split again, log2(16) rounds: %c0 .. %c15
//
// Scatters are the inverse: the components are interleaved two streams at
// a time (shuffles of low and high halves), log2(F) rounds, and stored as
// F vectors at the last scatter's place.
//
// The vectorizer's interleaved groups get the same networks: a wide load
// of F * VF elements whose every use extracts one component (lanes c,
// c + F, ...) becomes F loads of VF lanes and the deinterleaving; a wide
// store of one shuffle that interleaves F components (concatenated by
// shuffles, which the pass follows down to them) becomes the interleaving
// and F stores. Both stay where the wide access was.
//
// The loads go where the group's first gather was, the stores where its
// last scatter was; nothing between them may write memory (gathers), or
// touch it (scatters), but the group itself and the scatters of groups
// whose bytes are apart from its own: the vectorizer, interleaving a loop
// by two, alternates two groups' scatters, their roots' indices splat(s)
// + V and splat(s + VF) + V (ScalarEvolution tells the distance). Where
// two scatters write the same component, the later one's value is stored.
//
// Limits: whole vectors only (every lane, every component; a float3's
// padding is never read); indices of the pointer's width, where lane
// arithmetic wraps as addresses do; groups in one block.
#include "compiler/vectorize/ComponentTransposePass.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Transforms/Utils/Local.h>

#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft::compiler {

namespace {

/// Deeper than this, a lane step is not looked for.
constexpr unsigned MaxDepth = 8;
/// Groups of more components than this are left alone.
constexpr uint64_t MaxComponents = 64;

/// Lane steps of integer vectors: lane l + 1 minus lane l, the same for
/// every l, in the vector's width's wrapping arithmetic (kept in 64 bits,
/// so only for 64-bit elements, which the caller checks).
class LaneSteps {
public:
  std::optional<uint64_t> of(Value *V, unsigned Depth = 0) {
    if (Depth > MaxDepth)
      return std::nullopt;
    auto *Ty = dyn_cast<FixedVectorType>(V->getType());
    if (!Ty || !Ty->getElementType()->isIntegerTy(64))
      return std::nullopt;
    if (getSplatValue(V))
      return 0;
    if (auto *C = dyn_cast<Constant>(V))
      return ofConstant(*C, Ty->getNumElements());
    const APInt *K;
    Value *A, *B;
    if (match(V, m_Add(m_Value(A), m_Value(B))))
      return combine(of(A, Depth + 1), of(B, Depth + 1),
                     [](uint64_t X, uint64_t Y) { return X + Y; });
    if (match(V, m_Sub(m_Value(A), m_Value(B))))
      return combine(of(A, Depth + 1), of(B, Depth + 1),
                     [](uint64_t X, uint64_t Y) { return X - Y; });
    if (match(V, m_c_Mul(m_Value(A), m_APInt(K)))) {
      if (std::optional<uint64_t> S = of(A, Depth + 1))
        return *S * K->getZExtValue();
      return std::nullopt;
    }
    if (match(V, m_Shl(m_Value(A), m_APInt(K))) && K->ult(64)) {
      if (std::optional<uint64_t> S = of(A, Depth + 1))
        return *S << K->getZExtValue();
      return std::nullopt;
    }
    if (auto *Phi = dyn_cast<PHINode>(V))
      return ofPhi(*Phi, Depth);
    return std::nullopt;
  }

private:
  /// A PHI's step: assumed from the first incoming value that has one
  /// without it (the induction's start), then checked on every incoming
  /// value (the start, and the PHI plus a splat around the loop).
  std::optional<uint64_t> ofPhi(PHINode &Phi, unsigned Depth) {
    if (auto It = Phis.find(&Phi); It != Phis.end())
      return It->second;
    Phis[&Phi] = std::nullopt;
    std::optional<uint64_t> Step;
    for (Value *In : Phi.incoming_values())
      if ((Step = of(In, Depth + 1)))
        break;
    if (!Step) {
      Phis.erase(&Phi);
      return std::nullopt;
    }
    Phis[&Phi] = Step;
    for (Value *In : Phi.incoming_values())
      if (of(In, Depth + 1) != Step) {
        Phis.erase(&Phi);
        return std::nullopt;
      }
    return Step;
  }

  static std::optional<uint64_t> ofConstant(Constant &C, unsigned Lanes) {
    SmallVector<uint64_t, 16> Values;
    for (unsigned L = 0; L < Lanes; ++L) {
      auto *Lane = dyn_cast_or_null<ConstantInt>(C.getAggregateElement(L));
      if (!Lane)
        return std::nullopt;
      Values.push_back(Lane->getZExtValue());
    }
    const uint64_t Step = Values[1] - Values[0];
    for (unsigned L = 1; L < Lanes; ++L)
      if (Values[L] - Values[L - 1] != Step)
        return std::nullopt;
    return Step;
  }

  template <typename Op>
  static std::optional<uint64_t> combine(std::optional<uint64_t> A, std::optional<uint64_t> B,
                                         Op Combine) {
    if (!A || !B)
      return std::nullopt;
    return Combine(*A, *B);
  }

  DenseMap<PHINode *, std::optional<uint64_t>> Phis;
};

/// A gather or a scatter with every lane enabled.
struct Access {
  IntrinsicInst *Call;
  uint64_t Offset; ///< bytes from the group's root, the same in every lane
};

bool isScatter(const IntrinsicInst &Call) {
  return Call.getIntrinsicID() == Intrinsic::masked_scatter;
}
Value *pointers(IntrinsicInst &Call) { return Call.getArgOperand(isScatter(Call) ? 1 : 0); }
Align alignment(IntrinsicInst &Call) {
  return cast<ConstantInt>(Call.getArgOperand(isScatter(Call) ? 2 : 1))->getAlignValue();
}
FixedVectorType *dataType(IntrinsicInst &Call) {
  return dyn_cast<FixedVectorType>(isScatter(Call) ? Call.getArgOperand(0)->getType()
                                                   : Call.getType());
}

/// Call, when it is a gather or scatter of every lane.
IntrinsicInst *wholeGatherOrScatter(Instruction &I) {
  auto *Call = dyn_cast<IntrinsicInst>(&I);
  if (!Call)
    return nullptr;
  Value *Mask;
  if (Call->getIntrinsicID() == Intrinsic::masked_gather)
    Mask = Call->getArgOperand(2);
  else if (Call->getIntrinsicID() == Intrinsic::masked_scatter)
    Mask = Call->getArgOperand(3);
  else
    return nullptr;
  return match(Mask, m_AllOnes()) && dataType(*Call) ? Call : nullptr;
}

/// Ptrs as a root and a constant offset: the root is what is left after the
/// GEPs of constant scalar indices on a vector of pointers.
std::pair<Value *, uint64_t> splitOffset(Value *Ptrs, const DataLayout &DL) {
  uint64_t Offset = 0;
  while (auto *GEP = dyn_cast<GetElementPtrInst>(Ptrs)) {
    if (!GEP->getPointerOperandType()->isVectorTy() || !GEP->hasAllConstantIndices())
      break;
    APInt Bytes(64, 0);
    if (!GEP->accumulateConstantOffset(DL, Bytes))
      break;
    Offset += Bytes.getZExtValue();
    Ptrs = GEP->getPointerOperand();
  }
  return {Ptrs, Offset};
}

/// The bytes between neighbouring lanes of Root: a GEP from one scalar
/// pointer with one vector index, of the pointer's index width, and
/// constants after it (a struct's field, a row's first element).
std::optional<uint64_t> laneStride(Value *Root, const DataLayout &DL, LaneSteps &Steps) {
  auto *GEP = dyn_cast<GetElementPtrInst>(Root);
  if (!GEP || GEP->getPointerOperandType()->isVectorTy())
    return std::nullopt;
  Value *Lanes = nullptr;
  Type *Indexed = nullptr;
  for (auto It = gep_type_begin(GEP), End = gep_type_end(GEP); It != End; ++It) {
    Value *Index = It.getOperand();
    if (Lanes && !isa<ConstantInt>(Index))
      return std::nullopt; // a second vector index, or a variable after one
    if (Index->getType()->isVectorTy()) {
      if (It.isStruct())
        return std::nullopt;
      Lanes = Index;
      Indexed = It.getIndexedType();
    }
  }
  if (!Lanes || !Indexed->isSized() ||
      Lanes->getType()->getScalarSizeInBits() != DL.getIndexTypeSizeInBits(GEP->getType()))
    return std::nullopt;
  std::optional<uint64_t> Step = Steps.of(Lanes);
  if (!Step)
    return std::nullopt;
  return *Step * DL.getTypeAllocSize(Indexed).getFixedSize();
}

/// F registers of VF lanes, F * VF consecutive elements, split into the F
/// streams of every F-th element: the evens and the odds of each pair of
/// registers, then each of those split again.
SmallVector<Value *, 16> deinterleave(IRBuilderBase &B, ArrayRef<Value *> Regs) {
  if (Regs.size() == 1)
    return {Regs[0]};
  const unsigned VF = cast<FixedVectorType>(Regs[0]->getType())->getNumElements();
  SmallVector<int, 16> Even, Odd;
  for (unsigned L = 0; L < VF; ++L) {
    Even.push_back(2 * L);
    Odd.push_back(2 * L + 1);
  }
  SmallVector<Value *, 16> Evens, Odds;
  for (size_t R = 0; R < Regs.size(); R += 2) {
    Evens.push_back(B.CreateShuffleVector(Regs[R], Regs[R + 1], Even));
    Odds.push_back(B.CreateShuffleVector(Regs[R], Regs[R + 1], Odd));
  }
  SmallVector<Value *, 16> E = deinterleave(B, Evens), O = deinterleave(B, Odds), Out;
  for (size_t C = 0; C < E.size(); ++C) {
    Out.push_back(E[C]);
    Out.push_back(O[C]);
  }
  return Out;
}

/// The inverse: F streams of VF lanes (the components) into F registers
/// of consecutive elements, element w * F + c being lane w of stream c.
SmallVector<Value *, 16> interleave(IRBuilderBase &B, ArrayRef<Value *> Streams) {
  if (Streams.size() == 1)
    return {Streams[0]};
  const unsigned VF = cast<FixedVectorType>(Streams[0]->getType())->getNumElements();
  SmallVector<Value *, 16> EvenStreams, OddStreams;
  for (size_t C = 0; C < Streams.size(); C += 2) {
    EvenStreams.push_back(Streams[C]);
    OddStreams.push_back(Streams[C + 1]);
  }
  SmallVector<Value *, 16> E = interleave(B, EvenStreams), O = interleave(B, OddStreams);
  SmallVector<int, 16> Low, High;
  for (unsigned L = 0; L < VF / 2; ++L) {
    Low.append({static_cast<int>(L), static_cast<int>(VF + L)});
    High.append({static_cast<int>(VF / 2 + L), static_cast<int>(VF + VF / 2 + L)});
  }
  SmallVector<Value *, 16> Out;
  for (size_t R = 0; R < E.size(); ++R) {
    Out.push_back(B.CreateShuffleVector(E[R], O[R], Low));
    Out.push_back(B.CreateShuffleVector(E[R], O[R], High));
  }
  return Out;
}

/// The bytes of an Elem when they hold exactly its bits (no padding, as a
/// float's or an i64's), else 0: only such elements make a contiguous row
/// of whole registers.
uint64_t wholeBytes(Type *Elem, const DataLayout &DL) {
  const uint64_t Bytes = DL.getTypeStoreSize(Elem);
  return Bytes * 8 == DL.getTypeSizeInBits(Elem) && Bytes == DL.getTypeAllocSize(Elem) ? Bytes : 0;
}

/// The address of register R of a row of registers of RegTy from Base,
/// and its alignment, Base's being BaseAlign. (The elements are whole
/// bytes, wholeBytes: their bits tell their size.)
std::pair<Value *, Align> registerAt(IRBuilderBase &B, FixedVectorType *RegTy, Value *Base,
                                     Align BaseAlign, uint64_t R) {
  const uint64_t Elements = R * RegTy->getNumElements();
  Value *Ptr = R == 0 ? Base : B.CreateConstGEP1_64(RegTy->getElementType(), Base, Elements);
  return {Ptr, commonAlignment(BaseAlign, Elements * RegTy->getScalarSizeInBits() / 8)};
}

/// F registers of RegTy loaded from Base on, in memory order.
SmallVector<Value *, 16> loadRegisters(IRBuilderBase &B, FixedVectorType *RegTy, Value *Base,
                                       Align BaseAlign, uint64_t F, const AAMDNodes &AA) {
  SmallVector<Value *, 16> Regs;
  for (uint64_t R = 0; R < F; ++R) {
    auto [Ptr, RegAlign] = registerAt(B, RegTy, Base, BaseAlign, R);
    LoadInst *Load = B.CreateAlignedLoad(RegTy, Ptr, RegAlign, "transpose.load");
    Load->setAAMetadata(AA);
    Regs.push_back(Load);
  }
  return Regs;
}

/// Regs stored from Base on, in memory order.
void storeRegisters(IRBuilderBase &B, ArrayRef<Value *> Regs, Value *Base, Align BaseAlign,
                    const AAMDNodes &AA) {
  auto *RegTy = cast<FixedVectorType>(Regs.front()->getType());
  for (uint64_t R = 0; R < Regs.size(); ++R) {
    auto [Ptr, RegAlign] = registerAt(B, RegTy, Base, BaseAlign, R);
    B.CreateAlignedStore(Regs[R], Ptr, RegAlign)->setAAMetadata(AA);
  }
}

/// A group of gathers or scatters that has the shape of a transposition:
/// F components of VF lanes, every component accessed.
struct Plan {
  GetElementPtrInst *Root;
  SmallVector<Access, 16> Accesses;           ///< in program order
  SmallVector<IntrinsicInst *, 16> Component; ///< the last access of each
  FixedVectorType *VecTy;
  uint64_t F, ElemBytes;
  bool Scatters;
  uint64_t bytes() const { return F * VecTy->getNumElements() * ElemBytes; }
};

/// Group as a plan, or none if it does not have the shape.
std::optional<Plan> shape(GetElementPtrInst *Root, ArrayRef<Access> Group, const DataLayout &DL,
                          LaneSteps &Steps) {
  FixedVectorType *VecTy = dataType(*Group.front().Call);
  const unsigned VF = VecTy->getNumElements();
  const uint64_t ElemBytes = wholeBytes(VecTy->getElementType(), DL);
  if (!isPowerOf2_32(VF) || VF < 2 || ElemBytes == 0)
    return std::nullopt;
  std::optional<uint64_t> Stride = laneStride(Root, DL, Steps);
  if (!Stride || *Stride % ElemBytes != 0)
    return std::nullopt;
  const uint64_t F = *Stride / ElemBytes;
  if (F < 2 || F > MaxComponents || !isPowerOf2_64(F))
    return std::nullopt;
  // Component c's access: the last one in program order (for scatters, the
  // value memory keeps).
  SmallVector<IntrinsicInst *, 16> Component(F, nullptr);
  for (const Access &A : Group) {
    if (A.Offset % ElemBytes != 0 || A.Offset / ElemBytes >= F)
      return std::nullopt;
    Component[A.Offset / ElemBytes] = A.Call;
  }
  if (is_contained(Component, nullptr))
    return std::nullopt;
  return Plan{Root,
              SmallVector<Access, 16>(Group.begin(), Group.end()),
              std::move(Component),
              VecTy,
              F,
              ElemBytes,
              isScatter(*Group.front().Call)};
}

/// The bytes from lane 0 of A's root to lane 0 of B's, when both are GEPs
/// from one pointer by the same indices but the vector one, and those two
/// differ by a constant splat: splat(s) + V and splat(s + k) + V (the
/// vectorizer's interleaved parts of one induction).
std::optional<int64_t> rootDistance(GetElementPtrInst &A, GetElementPtrInst &B,
                                    const DataLayout &DL, ScalarEvolution &SE) {
  if (A.getPointerOperand() != B.getPointerOperand() ||
      A.getSourceElementType() != B.getSourceElementType() ||
      A.getNumIndices() != B.getNumIndices())
    return std::nullopt;
  // (the splat's scalar, the rest) of a vector index.
  auto split = [](Value *Index) -> std::pair<Value *, Value *> {
    if (Value *S = getSplatValue(Index))
      return {S, nullptr};
    Value *X, *Y;
    if (match(Index, m_Add(m_Value(X), m_Value(Y)))) {
      if (Value *S = getSplatValue(X))
        return {S, Y};
      if (Value *S = getSplatValue(Y))
        return {S, X};
    }
    return {nullptr, Index};
  };
  std::optional<int64_t> Distance;
  auto ItB = gep_type_begin(&B);
  for (auto ItA = gep_type_begin(&A), End = gep_type_end(&A); ItA != End; ++ItA, ++ItB) {
    Value *IA = ItA.getOperand(), *IB = ItB.getOperand();
    if (!IA->getType()->isVectorTy()) {
      if (IA != IB)
        return std::nullopt;
      continue;
    }
    auto [SA, VA] = split(IA);
    auto [SB, VB] = split(IB);
    if (VA != VB || !SA || !SB || Distance || SA->getType() != SB->getType())
      return std::nullopt;
    auto *K = dyn_cast<SCEVConstant>(SE.getMinusSCEV(SE.getSCEV(SB), SE.getSCEV(SA)));
    if (!K || !ItA.getIndexedType()->isSized())
      return std::nullopt;
    Distance = K->getAPInt().getSExtValue() *
               static_cast<int64_t>(DL.getTypeAllocSize(ItA.getIndexedType()).getFixedSize());
  }
  return Distance;
}

/// Nothing between the plan's first and last access may write memory (nor,
/// for scatters, read it), but the plan itself and, for scatters, the
/// scatters Disjoint accepts (another plan's, whose bytes do not overlap).
bool nothingBetween(const Plan &P, function_ref<bool(Instruction &)> Disjoint) {
  SmallPtrSet<Instruction *, 16> Members;
  for (const Access &A : P.Accesses)
    Members.insert(A.Call);
  for (Instruction *I = P.Accesses.front().Call; I != P.Accesses.back().Call; I = I->getNextNode())
    if (!Members.contains(I) &&
        (P.Scatters ? I->mayReadOrWriteMemory() && !Disjoint(*I) : I->mayWriteToMemory()))
      return false;
  return true;
}

/// Replaces a plan's accesses by F loads or stores and the transposition.
/// The addresses it leaves unused go to Dead.
void rewrite(const Plan &P, SmallVectorImpl<WeakTrackingVH> &Dead) {
  IntrinsicInst &First = *P.Accesses.front().Call, &Last = *P.Accesses.back().Call;
  AAMDNodes AA = First.getAAMetadata();
  for (const Access &A : P.Accesses)
    AA = AA.merge(A.Call->getAAMetadata());
  const Align BaseAlign = alignment(*P.Component[0]);

  IRBuilder<> B(P.Scatters ? &Last : &First);
  Value *Base = B.CreateExtractElement(P.Root, B.getInt64(0), "transpose.base");
  if (!P.Scatters) {
    SmallVector<Value *, 16> Streams =
        deinterleave(B, loadRegisters(B, P.VecTy, Base, BaseAlign, P.F, AA));
    for (const Access &A : P.Accesses)
      A.Call->replaceAllUsesWith(Streams[A.Offset / P.ElemBytes]);
  } else {
    SmallVector<Value *, 16> Streams;
    for (IntrinsicInst *Call : P.Component)
      Streams.push_back(Call->getArgOperand(0));
    storeRegisters(B, interleave(B, Streams), Base, BaseAlign, AA);
  }
  for (const Access &A : P.Accesses) {
    Dead.push_back(pointers(*A.Call));
    A.Call->eraseFromParent();
  }
}

/// The stride-F extraction of component C: lanes C, C + F, C + 2F, ...
bool isStrided(ArrayRef<int> Mask, unsigned F, unsigned C) {
  for (size_t L = 0; L < Mask.size(); ++L)
    if (Mask[L] != static_cast<int>(C + L * F))
      return false;
  return true;
}

/// The interleaved group the loop vectorizer made of a load (a wide load
/// whose every use extracts one component, lanes c, c + F, ...): F loads of
/// one register each and the transposition. LLVM's code generator splits
/// the wide load into registers and builds each component from all F of
/// them (F - 1 shuffles a component where the transposition takes log2 F).
bool transposeWideLoad(LoadInst &Wide, const DataLayout &DL) {
  auto *WideTy = dyn_cast<FixedVectorType>(Wide.getType());
  if (!WideTy || !Wide.isSimple() || Wide.use_empty())
    return false;
  const unsigned N = WideTy->getNumElements();
  if (!wholeBytes(WideTy->getElementType(), DL))
    return false;
  unsigned VF = 0;
  SmallVector<std::pair<ShuffleVectorInst *, unsigned>, 16> Uses; // (use, component)
  for (User *U : Wide.users()) {
    auto *Shuffle = dyn_cast<ShuffleVectorInst>(U);
    if (!Shuffle || Shuffle->getOperand(0) != &Wide ||
        !(isa<UndefValue>(Shuffle->getOperand(1)) || Shuffle->getOperand(1) == &Wide))
      return false;
    const unsigned Lanes = cast<FixedVectorType>(Shuffle->getType())->getNumElements();
    if (VF && Lanes != VF)
      return false;
    VF = Lanes;
    if (VF < 2 || !isPowerOf2_32(VF) || N % VF != 0 || !isPowerOf2_32(N / VF) || N / VF < 2)
      return false;
    ArrayRef<int> Mask = Shuffle->getShuffleMask();
    if (Mask[0] < 0 || !isStrided(Mask, N / VF, Mask[0]) || Mask[0] >= static_cast<int>(N / VF))
      return false;
    Uses.push_back({Shuffle, static_cast<unsigned>(Mask[0])});
  }
  const unsigned F = N / VF;
  if (F > MaxComponents)
    return false;
  IRBuilder<> B(&Wide);
  SmallVector<Value *, 16> Streams = deinterleave(
      B, loadRegisters(B, FixedVectorType::get(WideTy->getElementType(), VF),
                       Wide.getPointerOperand(), Wide.getAlign(), F, Wide.getAAMetadata()));
  for (auto [Shuffle, C] : Uses) {
    Shuffle->replaceAllUsesWith(Streams[C]);
    Shuffle->eraseFromParent();
  }
  Wide.eraseFromParent();
  return true;
}

/// Lane Lane of V, followed through shuffles down to a value of type Leaf:
/// that value and its lane, or null.
std::pair<Value *, int> leafLane(Value *V, int Lane, Type *Leaf) {
  while (V->getType() != Leaf) {
    auto *Shuffle = dyn_cast<ShuffleVectorInst>(V);
    if (!Shuffle || Lane < 0)
      return {nullptr, 0};
    const int M = Shuffle->getMaskValue(Lane);
    const int Width = cast<FixedVectorType>(Shuffle->getOperand(0)->getType())->getNumElements();
    if (M < 0)
      return {nullptr, 0};
    V = Shuffle->getOperand(M < Width ? 0 : 1);
    Lane = M < Width ? M : M - Width;
  }
  return {V, Lane};
}

/// The interleaved group the loop vectorizer made of a store (the F
/// components concatenated by shuffles, then interleaved by one, and
/// stored whole): the transposition and F stores of one register each.
bool transposeWideStore(StoreInst &Wide, const DataLayout &DL,
                        SmallVectorImpl<WeakTrackingVH> &Dead) {
  auto *Interleaved = dyn_cast<ShuffleVectorInst>(Wide.getValueOperand());
  if (!Interleaved || !Wide.isSimple())
    return false;
  auto *WideTy = cast<FixedVectorType>(Interleaved->getType());
  const unsigned N = WideTy->getNumElements();
  Type *Elem = WideTy->getElementType();
  if (!wholeBytes(Elem, DL))
    return false;
  // The components' type: what lane 0 comes from, below the shuffles.
  Value *V = Interleaved;
  while (auto *Shuffle = dyn_cast<ShuffleVectorInst>(V))
    V = Shuffle->getOperand(0);
  auto *RegTy = dyn_cast<FixedVectorType>(V->getType());
  if (!RegTy || RegTy == WideTy || RegTy->getElementType() != Elem)
    return false;
  const unsigned VF = RegTy->getNumElements();
  if (VF < 2 || !isPowerOf2_32(VF) || N % VF != 0 || !isPowerOf2_32(N / VF))
    return false;
  const unsigned F = N / VF;
  if (F < 2 || F > MaxComponents)
    return false;
  SmallVector<Value *, 16> Streams(F, nullptr);
  for (unsigned M = 0; M < N; ++M) {
    auto [Leaf, Lane] = leafLane(Interleaved, M, RegTy);
    const unsigned C = M % F;
    if (!Leaf || Lane != static_cast<int>(M / F) || (Streams[C] && Streams[C] != Leaf))
      return false;
    Streams[C] = Leaf;
  }
  IRBuilder<> B(&Wide);
  storeRegisters(B, interleave(B, Streams), Wide.getPointerOperand(), Wide.getAlign(),
                 Wide.getAAMetadata());
  Dead.push_back(Interleaved);
  Wide.eraseFromParent();
  return true;
}

} // namespace

PreservedAnalyses ComponentTransposePass::run(Function &F, FunctionAnalysisManager &FAM) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  ScalarEvolution *SE = nullptr; // asked for only where two scatter groups interleave
  LaneSteps Steps;
  SmallVector<WeakTrackingVH, 32> Dead;
  bool Changed = false;
  for (BasicBlock &BB : F) {
    // (root, data type, gather or scatter) -> its accesses in program order.
    MapVector<std::tuple<Value *, Type *, unsigned>, SmallVector<Access, 16>> Groups;
    SmallVector<LoadInst *, 8> Loads;
    SmallVector<StoreInst *, 8> Stores;
    for (Instruction &I : BB)
      if (auto *Load = dyn_cast<LoadInst>(&I))
        Loads.push_back(Load);
      else if (auto *Store = dyn_cast<StoreInst>(&I))
        Stores.push_back(Store);
      else if (IntrinsicInst *Call = wholeGatherOrScatter(I)) {
        // A root is a GEP, which no transposition erases (unlike a gather,
        // when one gathers the addresses of another).
        auto [Root, Offset] = splitOffset(pointers(*Call), DL);
        if (isa<GetElementPtrInst>(Root))
          Groups[{Root, dataType(*Call), Call->getIntrinsicID()}].push_back({Call, Offset});
      }
    // (A wide load's transposition erases only its own shuffles, a wide
    // store's only itself.)
    for (LoadInst *Load : Loads)
      Changed |= transposeWideLoad(*Load, DL);
    for (StoreInst *Store : Stores)
      Changed |= transposeWideStore(*Store, DL, Dead);

    // Every plan is checked on the block as it is, then rewritten: a
    // scatter plan's stores go where its last scatter was, which another
    // plan's check would otherwise see as a store between its scatters.
    SmallVector<Plan, 8> Plans;
    DenseMap<Instruction *, size_t> PlanOf;
    for (auto &[Key, Group] : Groups)
      if (Group.size() >= 2)
        if (std::optional<Plan> P =
                shape(cast<GetElementPtrInst>(std::get<0>(Key)), Group, DL, Steps)) {
          for (const Access &A : P->Accesses)
            PlanOf[A.Call] = Plans.size();
          Plans.push_back(std::move(*P));
        }
    SmallVector<const Plan *, 8> Qualified;
    for (const Plan &P : Plans) {
      auto Disjoint = [&](Instruction &I) {
        auto It = PlanOf.find(&I);
        if (It == PlanOf.end() || !Plans[It->second].Scatters)
          return false;
        const Plan &Other = Plans[It->second];
        if (!SE)
          SE = &FAM.getResult<ScalarEvolutionAnalysis>(F);
        std::optional<int64_t> D = rootDistance(*P.Root, *Other.Root, DL, *SE);
        return D && (*D >= static_cast<int64_t>(P.bytes()) ||
                     -*D >= static_cast<int64_t>(Other.bytes()));
      };
      if (nothingBetween(P, Disjoint))
        Qualified.push_back(&P);
    }
    for (const Plan *P : Qualified)
      rewrite(*P, Dead);
    Changed |= !Qualified.empty();
  }
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Dead);
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft::compiler
