// cl_khr_extended_bit_ops and cl_khr_integer_dot_product through the ICD
// loader, from OpenCL C source and from SPIR-V (spirv/integer_ops.cl
// through llvm-spirv-15, and spirv/integer_ops_instructions.spvasm for the
// instruction forms llvm-spirv-15 does not write), every result checked
// against host models written bit by bit and in 64-bit arithmetic:
//  - bitfield_insert, bitfield_extract_signed/_unsigned and bit_reverse on
//    every integer type and vector width, over every offset and count
//    with offset + count within the width, and the edges (count 0, the
//    whole value, the top bit) with offset and count known to the compiler;
//  - dot and dot_acc_sat on vectors and packed, in every mix of signedness,
//    on extreme bytes and random ones, with accumulators at and one past
//    the saturation boundaries, and chains that saturate on the way;
//  - the extension and feature strings, the capability and acceleration
//    queries.
#include "ApiTest.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <type_traits>

using namespace weft::test;

namespace {

/// Where a test's kernels come from.
enum class From { Source, Spirv };
const From Both[] = {From::Source, From::Spirv};
const char *name(From F) { return F == From::Source ? "OpenCL C" : "SPIR-V"; }

template <typename T> using Unsigned = std::make_unsigned_t<T>;
template <typename T> using Signed = std::make_signed_t<T>;
template <typename T> constexpr unsigned BitsOf = sizeof(T) * 8;

// --- The bit operations, one bit at a time --------------------------------

template <typename T> bool bitOf(T V, unsigned I) { return (uint64_t(Unsigned<T>(V)) >> I) & 1; }

/// The value of T whose bit I is Bit(I).
template <typename T, typename F> T fromBits(F Bit) {
  uint64_t R = 0;
  for (unsigned I = 0; I < BitsOf<T>; ++I)
    R |= uint64_t(Bit(I)) << I;
  return T(Unsigned<T>(R));
}

template <typename T> T modelInsert(T Base, T Insert, unsigned Offset, unsigned Count) {
  return fromBits<T>([&](unsigned I) {
    return I >= Offset && I < Offset + Count ? bitOf(Insert, I - Offset) : bitOf(Base, I);
  });
}
template <typename T> Signed<T> modelExtractSigned(T Base, unsigned Offset, unsigned Count) {
  return fromBits<Signed<T>>([&](unsigned I) {
    if (Count == 0)
      return false;
    return I < Count ? bitOf(Base, Offset + I) : bitOf(Base, Offset + Count - 1);
  });
}
template <typename T> Unsigned<T> modelExtractUnsigned(T Base, unsigned Offset, unsigned Count) {
  return fromBits<Unsigned<T>>([&](unsigned I) { return I < Count && bitOf(Base, Offset + I); });
}
template <typename T> T modelReverse(T Base) {
  return fromBits<T>([&](unsigned I) { return bitOf(Base, BitsOf<T> - 1 - I); });
}

// --- The dot products, in 64-bit arithmetic ---------------------------------

/// The signedness of a dot product's operands, first then second.
struct Signs {
  bool A, B;
};

/// Component K (byte K) of packed X, sign- or zero-extended.
int64_t byteOf(uint32_t X, unsigned K, bool Signed) {
  uint8_t Byte = uint8_t(X >> (8 * K));
  return Signed ? int64_t(int8_t(Byte)) : int64_t(Byte);
}

int64_t modelDot(uint32_t A, uint32_t B, Signs S) {
  int64_t Sum = 0;
  for (unsigned K = 0; K < 4; ++K)
    Sum += byteOf(A, K, S.A) * byteOf(B, K, S.B);
  return Sum;
}

/// V clamped to the range of T.
template <typename T> T saturate(int64_t V) {
  return T(std::clamp<int64_t>(V, int64_t(std::numeric_limits<T>::min()),
                               int64_t(std::numeric_limits<T>::max())));
}

/// Collects mismatches, reporting the first few in full and the rest as a
/// count, so that one wrong function does not print a million lines.
class Mismatches {
public:
  explicit Mismatches(std::string What) : What(std::move(What)) {}
  ~Mismatches() {
    if (Count > Shown)
      ADD_FAILURE() << What << ": " << Count << " mismatches in all";
  }
  template <typename G, typename W> void check(const G &Got, const W &Want, const std::string &At) {
    if (Got == Want)
      return;
    if (++Count <= Shown)
      ADD_FAILURE() << What << ", " << At << ": got " << +Got << ", want " << +Want;
  }

private:
  static constexpr unsigned Shown = 8;
  std::string What;
  unsigned Count = 0;
};

std::string hex(uint64_t V) {
  std::ostringstream OS;
  OS << "0x" << std::hex << V;
  return OS.str();
}

class IntegerOpsExtensions : public WithQueue {
protected:
  void SetUp() override {
    WithQueue::SetUp();
    std::ifstream In(std::string(WEFT_TEST_SPIRV_SOURCE_DIR) + "/integer_ops.cl");
    ASSERT_TRUE(In.good());
    std::string Source(std::istreambuf_iterator<char>(In), {});
    SourceProgram = build(Source, "-cl-std=CL3.0");
    OwnedPrograms.push_back(SourceProgram);
    SpirvProgram = fromIL("integer_ops.spv");
  }

  /// A program from the SPIR-V module Name, built.
  cl_program fromIL(const char *Name) {
    auto IL = readSpirv(Name);
    cl_int Err;
    cl_program P = clCreateProgramWithIL(Context, IL.data(), IL.size(), &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    if (!P)
      return nullptr;
    OwnedPrograms.push_back(P);
    EXPECT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
    return P;
  }

  cl_kernel make(cl_program P, const std::string &Name) { return kernelOf(P, Name); }
  cl_kernel make(From F, const std::string &Name) {
    return make(F == From::Source ? SourceProgram : SpirvProgram, Name);
  }

  template <typename T> cl_mem input(const std::vector<T> &V) {
    return buffer(std::max<size_t>(V.size(), 1) * sizeof(T), CL_MEM_COPY_HOST_PTR,
                  const_cast<T *>(V.data()));
  }

  /// Runs K over Items work-items (groups of the device's choosing) with
  /// the given buffers as its arguments, and waits.
  void run(cl_kernel K, size_t Items, std::initializer_list<cl_mem> Args) {
    cl_uint I = 0;
    for (cl_mem M : Args)
      ASSERT_EQ(clSetKernelArg(K, I++, sizeof(cl_mem), &M), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Items, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  }

  template <typename T, typename S, typename U> void checkBitOps(From F, const char *Type);
  template <typename T, typename S, typename U> void checkBitEdges(From F, const char *Type);
  void checkDots(From F);
  void checkChains(From F);

  cl_program SourceProgram = nullptr, SpirvProgram = nullptr;
};

/// Component values for the bit operations: patterns that expose a wrong
/// shift or sign (all ones, only the top bit, all but it, alternating
/// bits) among random ones.
template <typename T> T bitValue(std::mt19937_64 &Rng, size_t Which) {
  using U = Unsigned<T>;
  switch (Which % 6) {
  case 1:
    return T(U(~U(0)));
  case 2:
    return T(U(U(1) << (BitsOf<T> - 1)));
  case 3:
    return T(U(~U(0) >> 1));
  case 4:
    return T(U(0xaaaaaaaaaaaaaaaaull));
  default:
    return T(U(Rng()));
  }
}

/// Every bit operation of T and its vectors (S, U: T's signed and unsigned
/// twins), each work-item with its own offset and count: all pairs with
/// offset + count within the width, three work-items each.
template <typename T, typename S, typename U>
void IntegerOpsExtensions::checkBitOps(From F, const char *Type) {
  constexpr unsigned Bits = BitsOf<T>;
  std::vector<std::pair<uint32_t, uint32_t>> Fields;
  for (uint32_t Offset = 0; Offset <= Bits; ++Offset)
    for (uint32_t Count = 0; Offset + Count <= Bits; ++Count)
      for (int Copy = 0; Copy < 3; ++Copy)
        Fields.emplace_back(Offset, Count);
  const size_t Items = Fields.size();
  std::vector<uint32_t> OffsetCount;
  for (const auto &[Offset, Count] : Fields) {
    OffsetCount.push_back(Offset);
    OffsetCount.push_back(Count);
  }
  std::mt19937_64 Rng(Bits * 7919 + (std::is_signed_v<T> ? 1 : 0));
  for (unsigned N : {1u, 2u, 3u, 4u, 8u, 16u}) {
    const std::string Kernel = std::string("bit_ops_") + Type + (N == 1 ? "" : std::to_string(N));
    SCOPED_TRACE(std::string(name(F)) + ", " + Kernel);
    const unsigned Stored = N == 3 ? 4 : N; // a 3-component vector takes a 4-component slot
    std::vector<T> Base(Items * Stored), Insert(Items * Stored);
    for (size_t I = 0; I < Base.size(); ++I) {
      Base[I] = bitValue<T>(Rng, I);
      Insert[I] = bitValue<T>(Rng, I / 5 + I);
    }
    cl_mem Inserted = buffer(Base.size() * sizeof(T)), ExtractedS = buffer(Base.size() * sizeof(S)),
           ExtractedU = buffer(Base.size() * sizeof(U)), Reversed = buffer(Base.size() * sizeof(T));
    run(make(F, Kernel), Items,
        {input(Base), input(Insert), input(OffsetCount), Inserted, ExtractedS, ExtractedU,
         Reversed});
    auto GotInsert = read<T>(Inserted, Base.size());
    auto GotS = read<S>(ExtractedS, Base.size());
    auto GotU = read<U>(ExtractedU, Base.size());
    auto GotReverse = read<T>(Reversed, Base.size());
    Mismatches Wrong(std::string(name(F)) + " " + Kernel);
    for (size_t Item = 0; Item < Items; ++Item) {
      const auto [Offset, Count] = Fields[Item];
      for (unsigned C = 0; C < N; ++C) {
        const size_t I = Item * Stored + C;
        const std::string At = "work-item " + std::to_string(Item) + " component " +
                               std::to_string(C) + ", base " + hex(uint64_t(U(Base[I]))) +
                               ", insert " + hex(uint64_t(U(Insert[I]))) + ", offset " +
                               std::to_string(Offset) + ", count " + std::to_string(Count);
        Wrong.check(GotInsert[I], modelInsert<T>(Base[I], Insert[I], Offset, Count),
                    "bitfield_insert, " + At);
        Wrong.check(GotS[I], modelExtractSigned<T>(Base[I], Offset, Count),
                    "bitfield_extract_signed, " + At);
        Wrong.check(GotU[I], modelExtractUnsigned<T>(Base[I], Offset, Count),
                    "bitfield_extract_unsigned, " + At);
        Wrong.check(GotReverse[I], modelReverse<T>(Base[I]), "bit_reverse, " + At);
      }
    }
  }
}

/// The edges with offset and count constants of the kernel (bit_edges_*
/// in integer_ops.cl, in this order).
template <typename T, typename S, typename U>
void IntegerOpsExtensions::checkBitEdges(From F, const char *Type) {
  constexpr unsigned Bits = BitsOf<T>;
  const std::pair<unsigned, unsigned> Edges[] = {{Bits, 0},     {0, Bits}, {Bits - 1, 1}, {0, 1},
                                                 {3, Bits - 3}, {0, 0},    {1, Bits - 2}};
  constexpr size_t Items = 96;
  std::mt19937_64 Rng(Bits);
  std::vector<T> Base(Items), Insert(Items);
  for (size_t I = 0; I < Items; ++I) {
    Base[I] = bitValue<T>(Rng, I);
    Insert[I] = bitValue<T>(Rng, I / 6);
  }
  cl_mem Inserted = buffer(Items * 7 * sizeof(T)), ExtractedS = buffer(Items * 7 * sizeof(S)),
         ExtractedU = buffer(Items * 7 * sizeof(U));
  run(make(F, std::string("bit_edges_") + Type), Items,
      {input(Base), input(Insert), Inserted, ExtractedS, ExtractedU});
  auto GotInsert = read<T>(Inserted, Items * 7);
  auto GotS = read<S>(ExtractedS, Items * 7);
  auto GotU = read<U>(ExtractedU, Items * 7);
  Mismatches Wrong(std::string(name(F)) + " bit_edges_" + Type);
  for (size_t I = 0; I < Items; ++I)
    for (size_t E = 0; E < 7; ++E) {
      const auto [Offset, Count] = Edges[E];
      const std::string At = "base " + hex(uint64_t(U(Base[I]))) + ", insert " +
                             hex(uint64_t(U(Insert[I]))) + ", offset " + std::to_string(Offset) +
                             ", count " + std::to_string(Count);
      Wrong.check(GotInsert[7 * I + E], modelInsert<T>(Base[I], Insert[I], Offset, Count),
                  "bitfield_insert, " + At);
      Wrong.check(GotS[7 * I + E], modelExtractSigned<T>(Base[I], Offset, Count),
                  "bitfield_extract_signed, " + At);
      Wrong.check(GotU[7 * I + E], modelExtractUnsigned<T>(Base[I], Offset, Count),
                  "bitfield_extract_unsigned, " + At);
    }
}

/// The dot-product kernels of integer_ops.cl: the name, the operands'
/// signedness, whether it accumulates (saturating), whether its result is
/// unsigned.
struct DotKernel {
  const char *Name;
  Signs S;
  bool Accumulates;
};
constexpr bool U_ = false, S_ = true;
const DotKernel DotKernels[] = {
    {"dot_uu", {U_, U_}, false},
    {"dot_ss", {S_, S_}, false},
    {"dot_us", {U_, S_}, false},
    {"dot_su", {S_, U_}, false},
    {"dot_acc_sat_uu", {U_, U_}, true},
    {"dot_acc_sat_ss", {S_, S_}, true},
    {"dot_acc_sat_us", {U_, S_}, true},
    {"dot_acc_sat_su", {S_, U_}, true},
    {"dot_packed_uu", {U_, U_}, false},
    {"dot_packed_ss", {S_, S_}, false},
    {"dot_packed_us", {U_, S_}, false},
    {"dot_packed_su", {S_, U_}, false},
    {"dot_acc_sat_packed_uu", {U_, U_}, true},
    {"dot_acc_sat_packed_ss", {S_, S_}, true},
    {"dot_acc_sat_packed_us", {U_, S_}, true},
    {"dot_acc_sat_packed_su", {S_, U_}, true},
};

/// Packed operands (component 0 in the low byte, as a uchar4 or char4 in
/// memory): every pair of extreme bytes, the same in all four components
/// or mixed, then random bytes and small ones.
void dotOperands(size_t Items, std::vector<uint32_t> &A, std::vector<uint32_t> &B) {
  const uint8_t Extremes[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0xff, 0x40, 0xc0};
  auto splat = [](uint8_t V) { return uint32_t(V) * 0x01010101u; };
  std::mt19937 Rng(2024);
  A.clear();
  B.clear();
  for (uint8_t X : Extremes)
    for (uint8_t Y : Extremes) {
      A.push_back(splat(X));
      B.push_back(splat(Y));
      A.push_back(splat(X) ^ 0x00ff00ffu);
      B.push_back(splat(Y) ^ 0xff0000ffu);
    }
  while (A.size() < Items) {
    A.push_back(Rng());
    // Every third pair of small components, whose sums stay small.
    B.push_back(A.size() % 3 ? Rng() : Rng() & 0x0f0f0f0fu);
  }
}

/// An accumulator for item I whose dot product is Dot, of type T: at the
/// saturation boundaries (exactly reaching the limit, one past it, from
/// both ends), at the limits themselves, zero, minus the product, random.
template <typename T> T accumulatorFor(size_t I, int64_t Dot, std::mt19937 &Rng) {
  const int64_t Min = std::numeric_limits<T>::min(), Max = std::numeric_limits<T>::max();
  switch (I % 10) {
  case 0:
    return saturate<T>(Max - Dot);
  case 1:
    return saturate<T>(Max - Dot + 1);
  case 2:
    return saturate<T>(Min - Dot);
  case 3:
    return saturate<T>(Min - Dot - 1);
  case 4:
    return T(Max);
  case 5:
    return T(Min);
  case 6:
    return T(0);
  case 7:
    return saturate<T>(-Dot);
  case 8:
    return T(int64_t(Rng() % 2001) - 1000 + (std::is_signed_v<T> ? 0 : 1000));
  default:
    return T(Rng());
  }
}

void IntegerOpsExtensions::checkDots(From F) {
  constexpr size_t Items = 4099; // not a multiple of any vector width
  std::vector<uint32_t> A, B;
  dotOperands(Items, A, B);
  cl_mem InA = input(A), InB = input(B);
  std::mt19937 Rng(7);
  for (const DotKernel &D : DotKernels) {
    SCOPED_TRACE(std::string(name(F)) + ", " + D.Name);
    const bool UnsignedResult = !D.S.A && !D.S.B;
    std::vector<int64_t> Dot(Items);
    for (size_t I = 0; I < Items; ++I)
      Dot[I] = modelDot(A[I], B[I], D.S);
    // The accumulators as 32-bit patterns (uint for the unsigned forms).
    std::vector<uint32_t> Acc(Items);
    for (size_t I = 0; I < Items; ++I)
      Acc[I] = UnsignedResult ? accumulatorFor<uint32_t>(I, Dot[I], Rng)
                              : uint32_t(accumulatorFor<int32_t>(I, Dot[I], Rng));
    cl_mem Out = buffer(Items * sizeof(uint32_t));
    cl_kernel K = make(F, D.Name);
    if (D.Accumulates)
      run(K, Items, {InA, InB, input(Acc), Out});
    else
      run(K, Items, {InA, InB, Out});
    auto Got = read<uint32_t>(Out, Items);
    Mismatches Wrong(std::string(name(F)) + " " + D.Name);
    for (size_t I = 0; I < Items; ++I) {
      uint32_t Want;
      if (!D.Accumulates)
        Want = uint32_t(Dot[I]);
      else if (UnsignedResult)
        Want = saturate<uint32_t>(int64_t(Acc[I]) + Dot[I]);
      else
        Want = uint32_t(saturate<int32_t>(int64_t(int32_t(Acc[I])) + Dot[I]));
      Wrong.check(Got[I], Want,
                  "a " + hex(A[I]) + ", b " + hex(B[I]) +
                      (D.Accumulates ? ", acc " + hex(Acc[I]) : std::string()));
    }
  }
}

/// The chains of dot_chains: count[i] rows, each a dot_acc_sat of every
/// kind onto its own accumulator, saturating at every step.
void IntegerOpsExtensions::checkChains(From F) {
  constexpr size_t Items = 130, Rows = 64;
  std::mt19937 Rng(11);
  std::vector<uint32_t> A(Items * Rows), B(Items * Rows), Count(Items);
  for (size_t I = 0; I < Items; ++I) {
    Count[I] = uint32_t(I % (Rows + 1));
    for (size_t J = 0; J < Rows; ++J) {
      // Long runs of large products of one sign, so that chains reach
      // their limits and come back.
      const bool Up = (J / 16 + I) % 2 == 0;
      const uint32_t X = Rng() | 0x80808080u, Y = Rng() | 0x40404040u;
      A[I * Rows + J] = X;
      B[I * Rows + J] = Up ? Y & 0x7f7f7f7fu : Y | 0x80808080u;
    }
  }
  // Starting values: zero, near the top, near the bottom, random.
  const Signs Kinds[] = {{U_, U_}, {S_, S_}, {U_, S_}, {S_, U_}};
  std::vector<int32_t> Init(Items * 8);
  for (size_t I = 0; I < Items; ++I)
    for (size_t C = 0; C < 8; ++C) {
      const bool Uns = C % 4 == 0;
      const int64_t Far = 200000;
      switch ((I + C) % 4) {
      case 0:
        Init[I * 8 + C] = 0;
        break;
      case 1:
        Init[I * 8 + C] = Uns ? int32_t(uint32_t(UINT32_MAX - Far)) : int32_t(INT32_MAX - Far);
        break;
      case 2:
        Init[I * 8 + C] = Uns ? int32_t(Far) : int32_t(INT32_MIN + Far);
        break;
      default:
        Init[I * 8 + C] = int32_t(Rng());
      }
    }
  cl_mem Out = buffer(Items * 8 * sizeof(int32_t));
  run(make(F, "dot_chains"), Items, {input(A), input(B), input(Count), input(Init), Out});
  auto Got = read<int32_t>(Out, Items * 8);
  Mismatches Wrong(std::string(name(F)) + " dot_chains");
  size_t Saturated = 0, CameBack = 0; // chains that hit a limit; and then left it
  for (size_t I = 0; I < Items; ++I)
    for (size_t C = 0; C < 8; ++C) {
      // Chains 0-3 (dot_acc_sat) and 4-7 (packed): uu, ss, us, su; chain
      // 3 takes the rows in the other order (its char4 first).
      const Signs S = Kinds[C % 4];
      const bool Uns = C % 4 == 0;
      int64_t Acc = Uns ? int64_t(uint32_t(Init[I * 8 + C])) : int64_t(Init[I * 8 + C]);
      bool Hit = false, Left = false;
      for (size_t J = 0; J < Count[I]; ++J) {
        const uint32_t X = A[I * Rows + J], Y = B[I * Rows + J];
        const int64_t Dot = C == 3 ? modelDot(Y, X, S) : modelDot(X, Y, S);
        const int64_t Exact = Acc + Dot;
        Acc = Uns ? int64_t(saturate<uint32_t>(Exact)) : int64_t(saturate<int32_t>(Exact));
        Left |= Hit && Dot != 0 && Acc == Exact;
        Hit |= Acc != Exact;
      }
      Saturated += Hit;
      CameBack += Left;
      Wrong.check(uint32_t(Got[I * 8 + C]), uint32_t(Acc),
                  "work-item " + std::to_string(I) + ", chain " + std::to_string(C) + ", " +
                      std::to_string(Count[I]) + " rows from " + hex(uint32_t(Init[I * 8 + C])));
    }
  // The inputs must exercise what the test is for.
  EXPECT_GT(Saturated, Items);
  EXPECT_GT(CameBack, Items / 4);
}

/// 128-bit arithmetic for the 64-bit results' model.
using Wide = __int128;
template <typename T> T saturateWide(Wide V) {
  const Wide Min = Wide(std::numeric_limits<T>::min()), Max = Wide(std::numeric_limits<T>::max());
  return T(V < Min ? Min : V > Max ? Max : V);
}

/// The dot product of two 3 x 16-bit vectors, extended as S says.
int64_t modelDot16(const uint16_t (&V)[3], const uint16_t (&W)[3], Signs S) {
  int64_t Sum = 0;
  for (unsigned K = 0; K < 3; ++K)
    Sum += (S.A ? int64_t(int16_t(V[K])) : int64_t(V[K])) *
           (S.B ? int64_t(int16_t(W[K])) : int64_t(W[K]));
  return Sum;
}

} // namespace

TEST_F(IntegerOpsExtensions, DeviceReportsBothExtensionsAndTheirFeatures) {
  std::string Ext = " " + infoString(clGetDeviceInfo, Device, CL_DEVICE_EXTENSIONS) + " ";
  EXPECT_NE(Ext.find(" cl_khr_extended_bit_ops "), std::string::npos) << Ext;
  EXPECT_NE(Ext.find(" cl_khr_integer_dot_product "), std::string::npos) << Ext;

  auto versions = [&](cl_device_info Param) {
    size_t Size = 0;
    EXPECT_EQ(clGetDeviceInfo(Device, Param, 0, nullptr, &Size), CL_SUCCESS);
    std::vector<cl_name_version> List(Size / sizeof(cl_name_version));
    EXPECT_EQ(clGetDeviceInfo(Device, Param, Size, List.data(), nullptr), CL_SUCCESS);
    return List;
  };
  auto versionOf = [](const std::vector<cl_name_version> &List, const std::string &Name) {
    for (const cl_name_version &V : List)
      if (Name == V.name)
        return V.version;
    return cl_version(0);
  };
  auto Extensions = versions(CL_DEVICE_EXTENSIONS_WITH_VERSION);
  EXPECT_EQ(versionOf(Extensions, "cl_khr_extended_bit_ops"), CL_MAKE_VERSION(1, 0, 0));
  // Version 2 makes the unpacked 4 x 8-bit inputs mandatory.
  EXPECT_EQ(versionOf(Extensions, "cl_khr_integer_dot_product"), CL_MAKE_VERSION(2, 0, 0));
  auto Features = versions(CL_DEVICE_OPENCL_C_FEATURES);
  for (const char *F : {"__opencl_c_integer_dot_product_input_4x8bit",
                        "__opencl_c_integer_dot_product_input_4x8bit_packed"})
    EXPECT_EQ(versionOf(Features, F), CL_MAKE_VERSION(3, 0, 0)) << F;

  EXPECT_EQ(info<cl_device_integer_dot_product_capabilities_khr>(
                clGetDeviceInfo, Device, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR),
            cl_device_integer_dot_product_capabilities_khr(
                CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR));
}

TEST_F(IntegerOpsExtensions, AccelerationPropertiesAgreeForPackedAndUnpacked) {
  using Properties = cl_device_integer_dot_product_acceleration_properties_khr;
  auto members = [](const Properties &P) {
    return std::vector<cl_bool>{P.signed_accelerated,
                                P.unsigned_accelerated,
                                P.mixed_signedness_accelerated,
                                P.accumulating_saturating_signed_accelerated,
                                P.accumulating_saturating_unsigned_accelerated,
                                P.accumulating_saturating_mixed_signedness_accelerated};
  };
  auto Unpacked = members(info<Properties>(
      clGetDeviceInfo, Device, CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR));
  auto Packed = members(
      info<Properties>(clGetDeviceInfo, Device,
                       CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR));
  // Both forms are the same code, and every kind of product takes the
  // same path: one answer throughout, a cl_bool each.
  EXPECT_EQ(Unpacked, Packed);
  for (cl_bool B : Unpacked) {
    EXPECT_TRUE(B == CL_TRUE || B == CL_FALSE);
    EXPECT_EQ(B, Unpacked[0]);
  }
  // Accelerated exactly where the compiler makes the built-ins VNNI
  // instructions: a CPU with them at 128 and 256 bits (the host's, unless
  // WEFT_CPU names another or WEFT_NO_DOT_PRODUCT turns the pass off).
  const char *Cpu = std::getenv("WEFT_CPU");
  const char *Off = std::getenv("WEFT_NO_DOT_PRODUCT");
  if ((!Cpu || !*Cpu) && (!Off || !*Off || *Off == '0')) {
    std::ifstream CpuInfo("/proc/cpuinfo");
    std::string Line, Flags;
    while (std::getline(CpuInfo, Line))
      if (Line.rfind("flags", 0) == 0) {
        Flags = " " + Line.substr(Line.find(':') + 1) + " ";
        break;
      }
    if (!Flags.empty()) {
      auto has = [&](const char *F) {
        return Flags.find(std::string(" ") + F + " ") != std::string::npos;
      };
      const bool Vnni = has("avx_vnni") || (has("avx512_vnni") && has("avx512vl"));
      EXPECT_EQ(Unpacked[0], Vnni ? CL_TRUE : CL_FALSE);
    }
  }
  // Too small a buffer is an error, and nothing is written.
  Properties Small{};
  EXPECT_EQ(clGetDeviceInfo(Device, CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
                            sizeof(Small) - 1, &Small, nullptr),
            CL_INVALID_VALUE);
}

TEST_F(IntegerOpsExtensions, BitOperationsOnEveryTypeWidthOffsetAndCount) {
  for (From F : Both) {
    checkBitOps<cl_char, cl_char, cl_uchar>(F, "char");
    checkBitOps<cl_uchar, cl_char, cl_uchar>(F, "uchar");
    checkBitOps<cl_short, cl_short, cl_ushort>(F, "short");
    checkBitOps<cl_ushort, cl_short, cl_ushort>(F, "ushort");
    checkBitOps<cl_int, cl_int, cl_uint>(F, "int");
    checkBitOps<cl_uint, cl_int, cl_uint>(F, "uint");
    checkBitOps<cl_long, cl_long, cl_ulong>(F, "long");
    checkBitOps<cl_ulong, cl_long, cl_ulong>(F, "ulong");
  }
}

TEST_F(IntegerOpsExtensions, BitOperationEdgesKnownToTheCompiler) {
  for (From F : Both) {
    checkBitEdges<cl_char, cl_char, cl_uchar>(F, "char");
    checkBitEdges<cl_uchar, cl_char, cl_uchar>(F, "uchar");
    checkBitEdges<cl_short, cl_short, cl_ushort>(F, "short");
    checkBitEdges<cl_ushort, cl_short, cl_ushort>(F, "ushort");
    checkBitEdges<cl_int, cl_int, cl_uint>(F, "int");
    checkBitEdges<cl_uint, cl_int, cl_uint>(F, "uint");
    checkBitEdges<cl_long, cl_long, cl_ulong>(F, "long");
    checkBitEdges<cl_ulong, cl_long, cl_ulong>(F, "ulong");
  }
}

TEST_F(IntegerOpsExtensions, DotProductsInEverySignMixWithSaturationBoundaries) {
  for (From F : Both)
    checkDots(F);
}

TEST_F(IntegerOpsExtensions, SaturatingChainsReachTheirLimitsAndComeBack) {
  for (From F : Both)
    checkChains(F);
}

// The instruction forms llvm-spirv-15 does not write: packed operands,
// results of 16 and 64 bits, 16-bit vectors, bitfields with 64- and
// 16-bit offsets and counts (integer_ops_instructions.spvasm).
TEST_F(IntegerOpsExtensions, SpirvInstructionsOfEveryOperandAndResultForm) {
  cl_program P = fromIL("integer_ops_instructions.spv");
  ASSERT_NE(P, nullptr);
  constexpr size_t Items = 3001;
  std::vector<uint32_t> A, B;
  dotOperands(Items, A, B);
  std::mt19937 Rng(5);
  const Signs SS{S_, S_}, UU{U_, U_}, SU{S_, U_};
  std::vector<int32_t> Acc(Items);
  std::vector<int64_t> Acc64(Items);
  std::vector<int16_t> Acc16(Items);
  for (size_t I = 0; I < Items; ++I) {
    const int64_t Ss = modelDot(A[I], B[I], SS), Uu = modelDot(A[I], B[I], UU),
                  Su = modelDot(A[I], B[I], SU);
    Acc[I] = I % 3 == 0   ? accumulatorFor<int32_t>(I / 3, Ss, Rng)
             : I % 3 == 1 ? accumulatorFor<int32_t>(I / 3, Su, Rng)
                          : int32_t(accumulatorFor<uint32_t>(I / 3, Uu, Rng));
    switch (I % 6) {
    case 0:
      Acc64[I] = saturateWide<int64_t>(Wide(INT64_MAX) - Su);
      break;
    case 1:
      Acc64[I] = INT64_MAX;
      break;
    case 2:
      Acc64[I] = INT64_MIN;
      break;
    case 3:
      Acc64[I] = saturateWide<int64_t>(Wide(INT64_MIN) - Su - (I % 4 == 3));
      break;
    case 4:
      Acc64[I] = int64_t(UINT64_MAX - uint64_t(Uu) + (I % 4 == 0));
      break;
    default:
      Acc64[I] = int64_t(uint64_t(Rng()) << 32 | Rng());
    }
    Acc16[I] = I % 6 == 0   ? saturate<int16_t>(INT16_MAX - Ss)
               : I % 6 == 1 ? int16_t(INT16_MAX)
               : I % 6 == 2 ? int16_t(INT16_MIN)
               : I % 6 == 3 ? int16_t(saturate<uint16_t>(UINT16_MAX - Uu))
               : I % 6 == 4 ? saturate<int16_t>(INT16_MIN - Su)
                            : int16_t(Rng());
  }
  cl_mem Out = buffer(Items * 14 * sizeof(uint32_t)), Out64 = buffer(Items * 4 * sizeof(uint64_t)),
         Out16 = buffer(Items * 4 * sizeof(uint16_t));
  run(make(P, "instructions"), Items,
      {input(A), input(B), input(Acc), input(Acc64), input(Acc16), Out, Out64, Out16});
  auto Got = read<uint32_t>(Out, Items * 14);
  auto Got64 = read<uint64_t>(Out64, Items * 4);
  auto Got16 = read<uint16_t>(Out16, Items * 4);
  Mismatches Wrong("integer_ops_instructions.spvasm");
  for (size_t I = 0; I < Items; ++I) {
    const uint32_t X = A[I], Y = B[I];
    const int64_t Ss = modelDot(X, Y, SS), Uu = modelDot(X, Y, UU), Su = modelDot(X, Y, SU);
    const int64_t C = Acc[I], CU = uint32_t(Acc[I]);
    const std::string At = "work-item " + std::to_string(I) + ", a " + hex(X) + ", b " + hex(Y) +
                           ", acc " + hex(uint32_t(Acc[I])) + ": ";
    const uint32_t *G = &Got[I * 14];
    Wrong.check(G[0], uint32_t(Ss), At + "OpSDot packed");
    Wrong.check(G[1], uint32_t(Uu), At + "OpUDot packed");
    Wrong.check(G[2], uint32_t(Su), At + "OpSUDot packed");
    Wrong.check(G[3], uint32_t(saturate<int32_t>(C + Ss)), At + "OpSDotAccSat packed");
    Wrong.check(G[4], saturate<uint32_t>(CU + Uu), At + "OpUDotAccSat packed");
    Wrong.check(G[5], uint32_t(saturate<int32_t>(C + Su)), At + "OpSUDotAccSat packed");
    Wrong.check(G[6], uint32_t(Ss), At + "OpSDot of 4 x 8-bit vectors");
    Wrong.check(G[7], uint32_t(saturate<int32_t>(C + Su)),
                At + "OpSUDotAccSat of 4 x 8-bit vectors");
    const unsigned Offset = CU & 15, Count = (CU >> 4) & 15;
    Wrong.check(G[8], modelInsert<uint32_t>(X, Y, Offset, Count), At + "OpBitFieldInsert");
    Wrong.check(G[9], uint32_t(modelExtractSigned<uint32_t>(X, Offset, Count)),
                At + "OpBitFieldSExtract");
    Wrong.check(G[10], modelExtractUnsigned<uint32_t>(X, Offset, Count), At + "OpBitFieldUExtract");
    Wrong.check(G[11], modelReverse<uint32_t>(X), At + "OpBitReverse");
    const uint16_t V[3] = {uint16_t(X), uint16_t(X >> 16), uint16_t(Y)},
                   W[3] = {uint16_t(Y), uint16_t(Y >> 16), uint16_t(X)};
    Wrong.check(G[12], uint32_t(modelDot16(V, W, SU)), At + "OpSUDot of 3 x 16-bit vectors");
    // Defined only where the product itself fits the result.
    const int64_t Dot16 = modelDot16(V, W, SS);
    if (Dot16 >= INT32_MIN && Dot16 <= INT32_MAX)
      Wrong.check(G[13], uint32_t(saturate<int32_t>(C + Dot16)),
                  At + "OpSDotAccSat of 3 x 16-bit vectors");

    const uint64_t *G64 = &Got64[I * 4];
    const std::string At64 = At + "acc64 " + hex(uint64_t(Acc64[I])) + ", ";
    Wrong.check(G64[0], uint64_t(Ss), At64 + "OpSDot packed, 64 bits");
    Wrong.check(G64[1], uint64_t(Uu), At64 + "OpUDot packed, 64 bits");
    Wrong.check(G64[2], uint64_t(saturateWide<int64_t>(Wide(Acc64[I]) + Su)),
                At64 + "OpSUDotAccSat packed, 64 bits");
    Wrong.check(G64[3], saturateWide<uint64_t>(Wide(uint64_t(Acc64[I])) + Uu),
                At64 + "OpUDotAccSat packed, 64 bits");

    const uint16_t *G16 = &Got16[I * 4];
    const int64_t C16 = Acc16[I], C16U = uint16_t(Acc16[I]);
    const std::string At16 = At + "acc16 " + hex(uint16_t(Acc16[I])) + ", ";
    Wrong.check(G16[0], uint16_t(Ss), At16 + "OpSDot packed, 16 bits");
    if (Ss >= INT16_MIN && Ss <= INT16_MAX)
      Wrong.check(G16[1], uint16_t(saturate<int16_t>(C16 + Ss)), At16 + "OpSDotAccSat, 16 bits");
    if (Uu <= UINT16_MAX)
      Wrong.check(G16[2], saturate<uint16_t>(C16U + Uu), At16 + "OpUDotAccSat, 16 bits");
    if (Su >= INT16_MIN && Su <= INT16_MAX)
      Wrong.check(G16[3], uint16_t(saturate<int16_t>(C16 + Su)), At16 + "OpSUDotAccSat, 16 bits");
  }
}
