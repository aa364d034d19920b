// The printf formatter of the CPU device: arguments as PrintfPass describes
// them, converted as the conversion asks, and the failures printf reports.
#include "device/cpu/Printf.h"

#include <gtest/gtest.h>

#include <cstring>

namespace weft::cpu {
namespace {

using rt::PrintfArg;
using rt::PrintfArgKind;
using rt::printfArgType;

template <typename T> PrintfArg scalar(PrintfArgKind Kind, const T &V) {
  return {printfArgType(Kind, sizeof(T), 1), &V};
}
template <typename T, size_t N> PrintfArg vector(PrintfArgKind Kind, const T (&V)[N]) {
  return {printfArgType(Kind, sizeof(T), N), V};
}

std::string format(const char *Format, std::vector<PrintfArg> Args, int Expect = 0) {
  std::string Out;
  EXPECT_EQ(formatPrintf(Out, Format, Args.data(), uint32_t(Args.size())), Expect) << Format;
  return Out;
}

TEST(PrintfFormat, IntegersNarrowToTheLengthModifiersType) {
  int32_t Big = 300, Neg = -1;
  int64_t Long = -5000000000;
  EXPECT_EQ(format("%hhd %hhu %hd %hx", {scalar(PrintfArgKind::Integer, Big),
                                        scalar(PrintfArgKind::Integer, Big),
                                        scalar(PrintfArgKind::Integer, Neg),
                                        scalar(PrintfArgKind::Integer, Neg)}),
            "44 44 -1 ffff");
  EXPECT_EQ(format("%ld %d %lu", {scalar(PrintfArgKind::Integer, Long),
                                  scalar(PrintfArgKind::Integer, Neg),
                                  scalar(PrintfArgKind::Integer, Neg)}),
            "-5000000000 -1 4294967295");
  // A char the kernel did not promote (SPIR-V): signed conversions
  // sign-extend it, unsigned ones zero-extend it.
  int8_t C = -3;
  EXPECT_EQ(format("%d %u", {scalar(PrintfArgKind::Integer, C), scalar(PrintfArgKind::Integer, C)}),
            "-3 253");
}

TEST(PrintfFormat, FloatsOfEveryWidthWidenToDouble) {
  float F = 1.5f;
  double D = -0.25;
  uint16_t H = 0x3c00; // half 1.0
  uint16_t HalfVec[2] = {0xc000, 0x7c00}; // -2.0, +inf
  EXPECT_EQ(format("%f %e %g %v2hf",
                   {scalar(PrintfArgKind::Float, F), scalar(PrintfArgKind::Float, D),
                    scalar(PrintfArgKind::Float, H), vector(PrintfArgKind::Float, HalfVec)}),
            "1.500000 -2.500000e-01 1 -2.000000,inf");
}

TEST(PrintfFormat, VectorsFormatEachElementWithTheSameSpecification) {
  float V3[3] = {1, 2, 3};
  int32_t V4[4] = {1, -2, 3, -4};
  EXPECT_EQ(format("<%5.1v3hlf> <%+v4hli>", {vector(PrintfArgKind::Float, V3),
                                             vector(PrintfArgKind::Integer, V4)}),
            "<  1.0,  2.0,  3.0> <+1,-2,+3,-4>");
}

TEST(PrintfFormat, StarTakesWidthAndPrecisionFromArguments) {
  int32_t W = -6, P = 2;
  double D = 3.14159;
  EXPECT_EQ(format("[%*.*f]", {scalar(PrintfArgKind::Integer, W), scalar(PrintfArgKind::Integer, P),
                               scalar(PrintfArgKind::Float, D)}),
            "[3.14  ]");
}

TEST(PrintfFormat, StringsPointersAndPercent) {
  const char *S = "hello";
  const char *Null = nullptr;
  void *P = reinterpret_cast<void *>(0x1234);
  char Want[64];
  std::snprintf(Want, sizeof(Want), "hello|(null)|%p|100%%|he", P);
  EXPECT_EQ(format("%s|%s|%p|100%%|%.2s",
                   {scalar(PrintfArgKind::Pointer, S), scalar(PrintfArgKind::Pointer, Null),
                    scalar(PrintfArgKind::Pointer, P), scalar(PrintfArgKind::Pointer, S)}),
            Want);
}

TEST(PrintfFormat, TextThatIsNoConversionPrintsAsWritten) {
  // Undefined behaviour, so printf fails, but the text is all there.
  EXPECT_EQ(format("50% %y %v5hd end %", {}, -1), "50% %y %v5hd end %");
}

// Regression: an invalid conversion before a %s, or a %s given a number,
// crashed the host: the formatter read on past the invalid one, and took
// the next argument (an int, a vector) for a string pointer. After an
// invalid conversion no argument is read; %s takes only a pointer.
TEST(PrintfFormat, NoArgumentIsReadAsAStringAfterAnInvalidConversion) {
  int32_t One = 1;
  int32_t V4[4] = {1, 2, 3, 4};
  const char *Ok = "ok";
  EXPECT_EQ(format("%q %s\n", {scalar(PrintfArgKind::Integer, One),
                                scalar(PrintfArgKind::Pointer, Ok)},
                   -1),
            "%q %s\n");
  EXPECT_EQ(format("%v4d %s\n", {vector(PrintfArgKind::Integer, V4),
                                  scalar(PrintfArgKind::Pointer, Ok)},
                   -1),
            "%v4d %s\n");
  EXPECT_EQ(format("x=%d %s!", {scalar(PrintfArgKind::Integer, One),
                                scalar(PrintfArgKind::Integer, One)},
                   -1),
            "x=1 %s!");
  float F = 2;
  EXPECT_EQ(format("%s", {scalar(PrintfArgKind::Float, F)}, -1), "%s");
}

TEST(PrintfFormat, MissingOrMismatchedArgumentsFail) {
  int32_t I = 7;
  float V2[2] = {1, 2};
  EXPECT_EQ(format("a %d b %d", {scalar(PrintfArgKind::Integer, I)}, -1), "a 7 b ");
  EXPECT_EQ(format("%v4hlf", {vector(PrintfArgKind::Float, V2)}, -1), "");
  EXPECT_EQ(format("%d", {{printfArgType(PrintfArgKind::Other, 0, 1), &I}}, -1), "");
  std::string Out;
  EXPECT_EQ(formatPrintf(Out, nullptr, nullptr, 0), -1);
}

TEST(PrintfFormat, VectorConversionsNeedALengthModifierExceptForFloats) {
  int32_t V2[2] = {1, 2};
  double D2[2] = {0.5, 1.5};
  EXPECT_EQ(format("%v2d|", {vector(PrintfArgKind::Integer, V2)}, -1), "%v2d|");
  EXPECT_EQ(format("%v2f", {vector(PrintfArgKind::Float, D2)}), "0.500000,1.500000");
}

} // namespace
} // namespace weft::cpu
