// SPIR-V lowering for the translator; see SpirvLowering.h.
#include "compiler/frontend/SpirvLowering.h"

#include <llvm/IR/Function.h>
#include <llvm/Support/raw_ostream.h>
#include <spirv-tools/libspirv.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace weft::compiler {

namespace {

enum Opcode : uint32_t {
  OpName = 5,
  OpEntryPoint = 15,
  OpDecorate = 71,
  OpTypeBool = 20,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpConstantFalse = 42,
  OpTypeArray = 28,
  OpTypeStruct = 30,
  OpTypePointer = 32,
  OpConstant = 43,
  OpConstantNull = 46,
  OpFunction = 54,
  OpCopyObject = 83,
  OpCopyMemory = 63,
  OpLoad = 61,
  OpStore = 62,
  OpCopyMemorySized = 64,
  OpPtrAccessChain = 67,
  OpUndef = 1,
  OpCompositeInsert = 82,
  OpCompositeExtract = 81,
  OpCompositeConstruct = 80,
  OpVectorShuffle = 79,
  OpTypeVector = 23,
  OpConvertPtrToU = 117,
  OpSConvert = 114,
  OpISub = 130,
  OpSDiv = 135,
  OpIEqual = 170,
  OpINotEqual = 171,
  OpMemoryModel = 14,
  OpSizeOf = 321,
  OpCopyLogical = 400,
  OpPtrEqual = 401,
  OpPtrNotEqual = 402,
  OpPtrDiff = 403,
  OpDecorateString = 5632,
  OpMemberDecorateString = 5633,
};

constexpr uint32_t AddressingPhysical32 = 1;
constexpr uint32_t DecorationLinkageAttributes = 41;

/// The prefix of the names lowerSpirv gives the functions it renames.
constexpr char RenamedPrefix[] = "__weft_spirv_fn.";

/// True for a name in one of the namespaces the translator gives the
/// builtin calls it makes.
bool inBuiltinNamespace(const std::string &Name) {
  return Name.rfind("_Z", 0) == 0 || Name.rfind("__spirv_", 0) == 0;
}

constexpr uint32_t MemoryVolatile = 0x1, MemoryAligned = 0x2, MemoryMakeAvailable = 0x8,
                   MemoryMakeVisible = 0x10;

struct Instruction {
  std::vector<uint32_t> Words;
  uint32_t TypeId = 0, ResultId = 0;
  uint32_t opcode() const { return Words[0] & 0xffff; }
};

/// Words of one memory-operands set starting at Words[I] (its mask).
size_t memoryOperandWords(const std::vector<uint32_t> &Words, size_t I) {
  uint32_t Mask = Words[I];
  return 1 + ((Mask & MemoryAligned) != 0) + ((Mask & MemoryMakeAvailable) != 0) +
         ((Mask & MemoryMakeVisible) != 0);
}

/// The lowering, in the order run() takes it: the module parsed into
/// instructions (the constructor, through SPIRV-Tools), functions in a
/// builtin namespace renamed (takeBuiltinNames), each instruction of the
/// function bodies lowered (lower), and the module assembled again with the
/// globals the lowerings needed (intType, nullOf, ...) before the bodies.
class Lowering {
public:
  explicit Lowering(const std::vector<uint32_t> &Words) : Header(Words.begin(), Words.begin() + 5) {
    Bound = Header[3];
    spv_context Ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_4);
    spvBinaryParse(Ctx, this, Words.data(), Words.size(), nullptr, &Lowering::parsed, nullptr);
    spvContextDestroy(Ctx);
  }

  LoweredSpirv run() {
    LoweredSpirv Result;
    Result.Names = takeBuiltinNames();
    std::vector<uint32_t> Globals, Body;
    bool InFunctions = false;
    for (const Instruction &I : Module) {
      InFunctions |= I.opcode() == OpFunction;
      if (!InFunctions) {
        if (I.opcode() == OpConstantNull) {
          const Instruction Zero = scalarZero(I);
          Globals.insert(Globals.end(), Zero.Words.begin(), Zero.Words.end());
        } else {
          Globals.insert(Globals.end(), I.Words.begin(), I.Words.end());
        }
        continue;
      }
      Out = &Body;
      lower(I);
    }
    Header[3] = Bound;
    std::vector<uint32_t> All = Header;
    All.insert(All.end(), Globals.begin(), Globals.end());
    All.insert(All.end(), NewGlobals.begin(), NewGlobals.end());
    All.insert(All.end(), Body.begin(), Body.end());
    Result.Bytes.assign(reinterpret_cast<const char *>(All.data()), All.size() * 4);
    return Result;
  }

private:
  static spv_result_t parsed(void *User, const spv_parsed_instruction_t *P) {
    auto &L = *static_cast<Lowering *>(User);
    if (P->opcode == OpDecorateString || P->opcode == OpMemberDecorateString)
      return SPV_SUCCESS;
    Instruction I;
    I.Words.assign(P->words, P->words + P->num_words);
    I.TypeId = P->type_id;
    I.ResultId = P->result_id;
    for (uint16_t K = 0; K < P->num_operands; ++K) {
      const spv_parsed_operand_t &Op = P->operands[K];
      if (Op.type != SPV_OPERAND_TYPE_LITERAL_STRING)
        continue;
      auto *Bytes = reinterpret_cast<unsigned char *>(&I.Words[Op.offset]);
      size_t Len = size_t(Op.num_words) * 4;
      size_t Nul = std::find(Bytes, Bytes + Len, 0) - Bytes;
      std::fill(Bytes + Nul, Bytes + Len, 0);
    }
    if (I.ResultId != 0) {
      L.TypeOf[I.ResultId] = I.TypeId;
      L.Definition[I.ResultId] = L.Module.size();
    }
    switch (P->opcode) {
    case OpMemoryModel:
      L.PointerBits = I.Words[1] == AddressingPhysical32 ? 32 : 64;
      break;
    case OpTypeInt:
      if (I.Words[3] == 0)
        L.IntTypes.emplace(I.Words[2], I.ResultId);
      break;
    default:
      break;
    }
    L.Module.push_back(std::move(I));
    return SPV_SUCCESS;
  }

  uint32_t fresh() { return Bound++; }

  /// An OpConstantNull of a scalar type as the constant it stands for
  /// (OpConstantFalse, or an OpConstant of zero words): the translator
  /// asserts on a scalar OpConstantNull, which SPIR-V allows. Others are
  /// returned as they are.
  Instruction scalarZero(const Instruction &Null) const {
    const Instruction &Type = definition(Null.TypeId);
    Instruction Zero = Null;
    switch (Type.opcode()) {
    case OpTypeBool:
      Zero.Words = {3u << 16 | OpConstantFalse, Null.TypeId, Null.ResultId};
      break;
    case OpTypeInt:
    case OpTypeFloat: {
      const uint32_t Width = Type.Words[2], Literal = (Width + 31) / 32;
      Zero.Words.assign(3 + Literal, 0);
      Zero.Words[0] = (3 + Literal) << 16 | OpConstant;
      Zero.Words[1] = Null.TypeId;
      Zero.Words[2] = Null.ResultId;
      break;
    }
    default:
      break;
    }
    return Zero;
  }

  /// Replaces the literal string at I.Words[At] with S.
  static void replaceString(Instruction &I, size_t At, const std::string &S) {
    size_t End = stringAt(I.Words, At).second;
    std::vector<uint32_t> W(I.Words.begin(), I.Words.begin() + At);
    size_t Base = W.size();
    W.resize(Base + S.size() / 4 + 1, 0);
    std::memcpy(&W[Base], S.data(), S.size()); // the host's byte order is the module's
    W.insert(W.end(), I.Words.begin() + End, I.Words.end());
    W[0] = uint32_t(W.size()) << 16 | I.opcode();
    I.Words = std::move(W);
  }

  /// Renames the functions whose names are in a builtin namespace
  /// (SpirvLowering.h); returns (new name, old name) for each.
  std::vector<std::pair<std::string, std::string>> takeBuiltinNames() {
    std::unordered_set<uint32_t> Functions;
    for (const Instruction &I : Module)
      if (I.opcode() == OpFunction)
        Functions.insert(I.ResultId);
    // Where each function's names are: (instruction, string word). The
    // translator reads entry points, then OpNames, then decorations, and
    // the last name it reads is the function's.
    struct Site {
      size_t Instruction, At;
    };
    std::map<uint32_t, std::vector<Site>> Sites;
    for (size_t K = 0; K < Module.size(); ++K) {
      const std::vector<uint32_t> &W = Module[K].Words;
      switch (Module[K].opcode()) {
      case OpEntryPoint:
        if (W.size() > 3 && Functions.count(W[2]))
          Sites[W[2]].push_back({K, 3});
        break;
      case OpName:
        if (W.size() > 2 && Functions.count(W[1]))
          Sites[W[1]].push_back({K, 2});
        break;
      case OpDecorate:
        if (W.size() > 3 && W[2] == DecorationLinkageAttributes && Functions.count(W[1]))
          Sites[W[1]].push_back({K, 3});
        break;
      default:
        break;
      }
    }
    std::vector<std::pair<std::string, std::string>> Renamed;
    for (const auto &[Id, Where] : Sites) {
      const Site &Last = Where.back();
      std::string Name = stringAt(Module[Last.Instruction].Words, Last.At).first;
      if (!inBuiltinNamespace(Name))
        continue;
      std::string As = RenamedPrefix + std::to_string(Id);
      for (const Site &S : Where)
        replaceString(Module[S.Instruction], S.At, As);
      Renamed.emplace_back(As, Name);
    }
    return Renamed;
  }

  void emit(std::initializer_list<uint32_t> Words) {
    Out->push_back(uint32_t(Words.size()) << 16 | *Words.begin());
    Out->insert(Out->end(), Words.begin() + 1, Words.end());
  }

  void emitGlobal(std::initializer_list<uint32_t> Words) {
    std::vector<uint32_t> *Saved = Out;
    Out = &NewGlobals;
    emit(Words);
    Out = Saved;
  }

  uint32_t intType(uint32_t Bits) {
    auto [It, Inserted] = IntTypes.emplace(Bits, 0);
    if (Inserted) {
      It->second = fresh();
      emitGlobal({OpTypeInt, It->second, Bits, 0});
    }
    return It->second;
  }

  uint32_t intPtrType() { return intType(PointerBits); }

  uint32_t intPtrOne() {
    if (IntPtrOne == 0) {
      IntPtrOne = fresh();
      if (PointerBits == 64)
        emitGlobal({OpConstant, intPtrType(), IntPtrOne, 1, 0});
      else
        emitGlobal({OpConstant, intPtrType(), IntPtrOne, 1});
    }
    return IntPtrOne;
  }

  uint32_t nullOf(uint32_t Type) {
    auto [It, Inserted] = Nulls.emplace(Type, 0);
    if (Inserted) {
      It->second = fresh();
      emitGlobal({OpConstantNull, Type, It->second});
    }
    return It->second;
  }

  const Instruction &definition(uint32_t Id) const { return Module[Definition.at(Id)]; }

  /// The pointee size of pointer type PtrType, as an integer of type IntType
  /// in Result.
  void sizeOfPointee(uint32_t PtrType, uint32_t IntType, uint32_t Result) {
    uint32_t Second = fresh();
    emit({OpPtrAccessChain, PtrType, Second, nullOf(PtrType), intPtrOne()});
    emit({OpConvertPtrToU, IntType, Result, Second});
  }

  uint32_t address(uint32_t Pointer) {
    uint32_t Id = fresh();
    emit({OpConvertPtrToU, intPtrType(), Id, Pointer});
    return Id;
  }

  /// A logical copy of Value (of type From) as type To, in Result if it
  /// is not 0 (else in an id of its own, or Value itself where the types
  /// are the same). The composite is built by OpCompositeInsert into an
  /// OpUndef: the translator reads OpCompositeConstruct of a struct or an
  /// array only when every constituent is a constant.
  uint32_t copyLogical(uint32_t To, uint32_t From, uint32_t Value, uint32_t Result = 0) {
    if (To == From) {
      if (Result != 0)
        emit({OpCopyObject, To, Result, Value});
      return Result != 0 ? Result : Value;
    }
    const Instruction &ToType = definition(To), &FromType = definition(From);
    std::vector<std::pair<uint32_t, uint32_t>> Members; // (to, from) types
    if (ToType.opcode() == OpTypeStruct) {
      for (size_t K = 2; K < ToType.Words.size(); ++K)
        Members.emplace_back(ToType.Words[K], FromType.Words[K]);
    } else {
      // Arrays of the same length (a constant: validation checked it).
      const Instruction &Length = definition(ToType.Words[3]);
      uint64_t N = Length.Words[3];
      if (Length.Words.size() > 4)
        N |= uint64_t(Length.Words[4]) << 32;
      Members.assign(N, {ToType.Words[2], FromType.Words[2]});
    }
    uint32_t Composite = fresh();
    emit({OpUndef, To, Composite});
    for (uint32_t K = 0; K < Members.size(); ++K) {
      uint32_t Part = fresh();
      emit({OpCompositeExtract, Members[K].second, Part, Value, K});
      uint32_t Copy = copyLogical(Members[K].first, Members[K].second, Part);
      uint32_t Next = K + 1 == Members.size() && Result != 0 ? Result : fresh();
      emit({OpCompositeInsert, To, Next, Copy, Composite, K});
      Composite = Next;
    }
    return Composite;
  }

  /// Appends I to the function bodies, in the form the translator reads:
  /// one of the lowerings below, or I itself.
  void lower(const Instruction &I) {
    switch (I.opcode()) {
    case OpPtrEqual:
    case OpPtrNotEqual:
      return lowerPtrCompare(I);
    case OpPtrDiff:
      return lowerPtrDiff(I);
    case OpSizeOf:
      sizeOfPointee(TypeOf.at(I.Words[3]), I.Words[1], I.Words[2]);
      return;
    case OpCopyLogical:
      copyLogical(I.Words[1], TypeOf.at(I.Words[3]), I.Words[3], I.Words[2]);
      return;
    case OpCopyMemory:
      return lowerCopyMemory(I);
    case OpCopyMemorySized:
      if (lowerCopyMemorySized(I))
        return;
      break;
    case OpCompositeConstruct:
      if (lowerVectorConstruct(I))
        return;
      break;
    case OpVectorShuffle:
      if (lowerMixedShuffle(I))
        return;
      break;
    default:
      break;
    }
    Out->insert(Out->end(), I.Words.begin(), I.Words.end());
  }

  /// OpPtrEqual, OpPtrNotEqual: the two addresses compared as integers.
  void lowerPtrCompare(const Instruction &I) {
    const std::vector<uint32_t> &W = I.Words;
    uint32_t A = address(W[3]), B = address(W[4]);
    emit({I.opcode() == OpPtrEqual ? OpIEqual : OpINotEqual, W[1], W[2], A, B});
  }

  /// OpPtrDiff: the addresses' difference in bytes divided by the pointee's
  /// size, converted to the result's type.
  void lowerPtrDiff(const Instruction &I) {
    const std::vector<uint32_t> &W = I.Words;
    uint32_t IntPtr = intPtrType();
    uint32_t A = address(W[3]), B = address(W[4]), Bytes = fresh(), Size = fresh();
    emit({OpISub, IntPtr, Bytes, A, B});
    sizeOfPointee(TypeOf.at(W[3]), IntPtr, Size);
    if (W[1] == IntPtr) {
      emit({OpSDiv, W[1], W[2], Bytes, Size});
    } else {
      uint32_t Elements = fresh();
      emit({OpSDiv, IntPtr, Elements, Bytes, Size});
      emit({OpSConvert, W[1], W[2], Elements});
    }
  }

  /// OpCopyMemory, which the translator cannot read at all: a load of the
  /// pointee and a store, the load under the source's memory operands (the
  /// second set, or the only one), the store under the target's.
  void lowerCopyMemory(const Instruction &I) {
    const std::vector<uint32_t> &W = I.Words;
    size_t Count = W.size();
    size_t TargetOps = 3, TargetEnd = Count > 3 ? 3 + memoryOperandWords(W, 3) : 3;
    size_t SourceOps = TargetEnd < Count ? TargetEnd : TargetOps;
    size_t SourceEnd = TargetEnd < Count ? Count : TargetEnd;
    uint32_t Pointee = definition(TypeOf.at(W[1])).Words[3], Value = fresh();
    std::vector<uint32_t> Load = {OpLoad, Pointee, Value, W[2]};
    Load.insert(Load.end(), W.begin() + SourceOps, W.begin() + SourceEnd);
    std::vector<uint32_t> Store = {OpStore, W[1], Value};
    Store.insert(Store.end(), W.begin() + TargetOps, W.begin() + TargetEnd);
    for (std::vector<uint32_t> *Inst : {&Load, &Store}) {
      (*Inst)[0] |= uint32_t(Inst->size()) << 16;
      Out->insert(Out->end(), Inst->begin(), Inst->end());
    }
  }

  /// OpCopyMemorySized with two memory-operand sets (SPIR-V 1.4): the
  /// translator reads one, so the first is kept, volatile if either is;
  /// false (nothing emitted) for an instruction with fewer than two.
  bool lowerCopyMemorySized(const Instruction &I) {
    const std::vector<uint32_t> &W = I.Words;
    size_t First = 4;
    if (First >= W.size() || First + memoryOperandWords(W, First) >= W.size())
      return false;
    size_t End = First + memoryOperandWords(W, First);
    std::vector<uint32_t> Kept(W.begin(), W.begin() + End);
    Kept[First] |= W[End] & MemoryVolatile;
    Kept[0] = uint32_t(Kept.size()) << 16 | I.opcode();
    Out->insert(Out->end(), Kept.begin(), Kept.end());
    return true;
  }

  /// Result = Base with Parts[K] as component K, by OpCompositeInserts
  /// into it (Base 0: an OpUndef of the vector type).
  void insertComponents(uint32_t VectorType, uint32_t Result, const std::vector<uint32_t> &Parts) {
    uint32_t Vector = fresh();
    emit({OpUndef, VectorType, Vector});
    for (uint32_t K = 0; K < Parts.size(); ++K) {
      const uint32_t Next = K + 1 == Parts.size() ? Result : fresh();
      emit({OpCompositeInsert, VectorType, Next, Parts[K], Vector, K});
      Vector = Next;
    }
  }

  /// OpCompositeConstruct of a vector in a function body, on which the
  /// translator crashes (in LLVM's ConstantVector::get) when a constituent
  /// is not a constant: the components inserted one by one, those of a
  /// vector constituent extracted first. False (nothing emitted) for
  /// structs and arrays.
  bool lowerVectorConstruct(const Instruction &I) {
    const std::vector<uint32_t> &W = I.Words;
    const Instruction &Type = definition(W[1]);
    if (Type.opcode() != OpTypeVector)
      return false;
    const uint32_t Component = Type.Words[2];
    std::vector<uint32_t> Parts;
    for (size_t K = 3; K < W.size(); ++K) {
      const Instruction &PartType = definition(TypeOf.at(W[K]));
      if (PartType.opcode() != OpTypeVector) {
        Parts.push_back(W[K]);
        continue;
      }
      for (uint32_t C = 0; C < PartType.Words[3]; ++C) {
        Parts.push_back(fresh());
        emit({OpCompositeExtract, Component, Parts.back(), W[K], C});
      }
    }
    insertComponents(W[1], W[2], Parts);
    return true;
  }

  /// OpVectorShuffle of two vectors of different lengths, which SPIR-V
  /// allows and the translator asserts on: the components extracted from
  /// their vectors and inserted into the result (the index 0xFFFFFFFF,
  /// no component, leaves an undefined one). False (nothing emitted) when
  /// the lengths are the same.
  bool lowerMixedShuffle(const Instruction &I) {
    const std::vector<uint32_t> &W = I.Words;
    const uint32_t First = TypeOf.at(W[3]), Second = TypeOf.at(W[4]);
    if (First == Second)
      return false;
    const uint32_t Component = definition(W[1]).Words[2];
    const uint32_t FirstLength = definition(First).Words[3];
    std::vector<uint32_t> Parts;
    for (size_t K = 5; K < W.size(); ++K) {
      Parts.push_back(fresh());
      if (W[K] == 0xffffffffu)
        emit({OpUndef, Component, Parts.back()});
      else if (W[K] < FirstLength)
        emit({OpCompositeExtract, Component, Parts.back(), W[3], W[K]});
      else
        emit({OpCompositeExtract, Component, Parts.back(), W[4], W[K] - FirstLength});
    }
    insertComponents(W[1], W[2], Parts);
    return true;
  }

  std::vector<uint32_t> Header;
  std::vector<Instruction> Module;
  std::unordered_map<uint32_t, uint32_t> TypeOf;   // result id -> its type
  std::unordered_map<uint32_t, size_t> Definition; // result id -> Module index
  std::map<uint32_t, uint32_t> IntTypes, Nulls;    // bits / type -> id
  std::vector<uint32_t> NewGlobals;
  std::vector<uint32_t> *Out = nullptr;
  uint32_t Bound = 0, PointerBits = 64, IntPtrOne = 0;
};

} // namespace

std::pair<std::string, size_t> stringAt(const std::vector<uint32_t> &W, size_t At) {
  std::string S;
  for (size_t I = At; I < W.size(); ++I)
    for (unsigned B = 0; B < 4; ++B) {
      char C = char(W[I] >> (8 * B) & 0xff);
      if (C == 0)
        return {S, I + 1};
      S += C;
    }
  return {S, W.size()};
}

std::vector<uint32_t> withoutDebugInfo(const std::vector<uint32_t> &Words) {
  constexpr uint32_t OpExtInstImport = 11, OpExtInst = 12;
  // The import's id, if there is one, in a module whose instructions tile
  // its words.
  uint32_t SetId = 0;
  for (size_t I = 5; I < Words.size();) {
    const size_t Count = Words[I] >> 16;
    if (Count == 0 || Count > Words.size() - I)
      return Words;
    if ((Words[I] & 0xffff) == OpExtInstImport && Count >= 3 &&
        stringAt(Words, I + 2).first == "OpenCL.DebugInfo.100")
      SetId = Words[I + 1];
    I += Count;
  }
  if (SetId == 0)
    return Words;
  std::vector<uint32_t> Out(Words.begin(), Words.begin() + 5);
  for (size_t I = 5; I < Words.size(); I += Words[I] >> 16) {
    const size_t Count = Words[I] >> 16;
    const uint32_t Opcode = Words[I] & 0xffff;
    if ((Opcode == OpExtInstImport && Count >= 2 && Words[I + 1] == SetId) ||
        (Opcode == OpExtInst && Count >= 4 && Words[I + 3] == SetId))
      continue;
    Out.insert(Out.end(), Words.begin() + I, Words.begin() + I + Count);
  }
  return Out;
}

bool isLoweredSpirvOpcode(uint32_t Opcode) {
  switch (Opcode) {
  case OpCopyMemory:
  case OpSizeOf:
  case OpCopyLogical:
  case OpPtrEqual:
  case OpPtrNotEqual:
  case OpPtrDiff:
  case OpDecorateString:
  case OpMemberDecorateString:
    return true;
  default:
    return false;
  }
}

LoweredSpirv lowerSpirv(const std::vector<uint32_t> &Words) { return Lowering(Words).run(); }

std::string restoreSpirvNames(llvm::Module &M, const LoweredSpirv &Lowered) {
  auto typeOf = [](const llvm::Function *F) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    F->getFunctionType()->print(OS);
    return OS.str();
  };
  for (const auto &[As, Name] : Lowered.Names) {
    llvm::Function *F = M.getFunction(As);
    if (F == nullptr)
      continue;
    llvm::Function *Other = M.getFunction(Name);
    if (Other == nullptr) {
      F->setName(Name);
      continue;
    }
    if (Other->getFunctionType() != F->getFunctionType())
      return "the function '" + Name + "' is declared with the type " + typeOf(F) +
             ", but the module's instructions need the builtin of that name, or another "
             "function of the module has that name, with the type " +
             typeOf(Other);
    if (F->isDeclaration()) {
      F->replaceAllUsesWith(Other);
      F->eraseFromParent();
    } else if (Other->isDeclaration()) {
      Other->replaceAllUsesWith(F);
      Other->eraseFromParent();
      F->setName(Name);
    } else {
      return "two functions of the module are both named '" + Name + "'";
    }
  }
  return "";
}

} // namespace weft::compiler
