#include "compiler/VectorMath.h"

#include <llvm/ADT/Triple.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Support/DynamicLibrary.h>

#include <array>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

using namespace llvm;

namespace weft::compiler::VectorMath {

namespace {

// A libm function with libmvec forms: its name (the double one; the float
// one adds 'f'), its argument count, and whether Clang calls it as an LLVM
// intrinsic (llvm.sin.f32) rather than by its libm name. The float and
// double flags say which forms meet the OpenCL C bound; the errors are the
// worst seen against a wider reference over every 7th float bit pattern
// and 20 million doubles, in the SSE / AVX2 / AVX-512 forms.
struct Function {
  const char *Name;
  unsigned Arity;
  bool Intrinsic;
  bool Float;
  bool Double;
};

// clang-format off
constexpr Function Functions[] = {
    //                         float: worst (bound)  double: worst (bound)
    {"acos", 1, false, true, true},   // 2.48 (4)    1.99 (4)
    {"acosh", 1, false, true, true},  // 3.09 (4)    2.60 (4)
    {"asin", 1, false, true, true},   // 3.10 (4)    2.67 (4)
    {"atan", 1, false, true, true},   // 2.76 (5)    2.56 (5)
    {"atanh", 1, false, true, true},  // 2.08 (5)    2.44 (5)
};
// clang-format on

// The instruction sets of libmvec's forms, with their mangling letter and
// register width (the x86-64 vector function ABI).
struct Isa {
  char Letter;
  unsigned Bits;
  const char *Feature; // what the target needs, or null for SSE2 (always)
};
constexpr std::array<Isa, 4> Isas = {{{'b', 128, nullptr},
                                      {'c', 256, "+avx"},
                                      {'d', 256, "+avx2"},
                                      {'e', 512, "+avx512f"}}};

// Every mapping of every instruction set, built once: the names must
// outlive each TargetLibraryInfoImpl that refers to them.
struct Table {
  std::deque<std::string> Names;
  std::array<std::vector<VecDesc>, Isas.size()> Mappings;
};

const Table &table() {
  static const Table T = [] {
    Table T;
    auto name = [&T](std::string S) -> StringRef { return T.Names.emplace_back(std::move(S)); };
    for (const Function &F : Functions)
      for (bool IsDouble : {false, true}) {
        if (!(IsDouble ? F.Double : F.Float))
          continue;
        std::string Scalar = std::string(F.Name) + (IsDouble ? "" : "f");
        std::vector<StringRef> ScalarNames = {name(Scalar)};
        if (F.Intrinsic)
          ScalarNames.push_back(name("llvm." + std::string(F.Name) + (IsDouble ? ".f64" : ".f32")));
        for (size_t I = 0; I < Isas.size(); ++I) {
          unsigned Lanes = Isas[I].Bits / (IsDouble ? 64 : 32);
          StringRef Vector = name("_ZGV" + std::string(1, Isas[I].Letter) + "N" +
                                  std::to_string(Lanes) + std::string(F.Arity, 'v') + "_" + Scalar);
          for (StringRef S : ScalarNames)
            T.Mappings[I].push_back({S, Vector, ElementCount::getFixed(Lanes)});
        }
      }
    return T;
  }();
  return T;
}

} // namespace

bool available() {
  static const bool Loaded = [] {
    std::string Error;
    return sys::DynamicLibrary::getPermanentLibrary(LibraryName, &Error).isValid();
  }();
  return Loaded;
}

void addMappings(TargetLibraryInfoImpl &TLII, const TargetMachine &TM) {
  if (TM.getTargetTriple().getArch() != Triple::x86_64 || !available())
    return;
  const MCSubtargetInfo *STI = TM.getMCSubtargetInfo();
  // One form per width: the 256-bit one of the best set the target has.
  bool HasAvx2 = STI->checkFeatures("+avx2");
  for (size_t I = 0; I < Isas.size(); ++I) {
    const Isa &S = Isas[I];
    if (S.Feature && !STI->checkFeatures(S.Feature))
      continue;
    if (S.Letter == 'c' && HasAvx2)
      continue;
    TLII.addVectorizableFunctions(table().Mappings[I]);
  }
}

} // namespace weft::compiler::VectorMath
