// ExactFmod: the fmod and fmodf that compiled kernels call. fmod, remainder
// and remquo (Math.cl, MathShared.h) and SPIR-V's OpFRem are LLVM frem,
// which the back end turns into one scalar libm call per lane (a vector
// frem only for the vectors with a lane VectorFremPass leaves to it); the
// JIT resolves those calls here (JitExecutable) instead of to glibc's.
//
// Why: glibc 2.36 (Debian 12) reduces the exponent difference of x and y one
// bit per step, with a branch it mispredicts about half the time: a
// microsecond a call once x/y is near 2^1000. These take 51 bits per step,
// with one division and one fused multiply-add, and give the same bits:
// fmod is exact, so there is only one right answer.
#pragma once

namespace weft::compiler::ExactFmod {

/// x - n*y for the integer n = trunc(x/y), exactly, with x's sign; NaN when
/// x is infinite or NaN, or y is zero or NaN; x when y is infinite.
double fmod(double X, double Y);

/// fmod for float, computed in double (exact there too).
float fmodf(float X, float Y);

} // namespace weft::compiler::ExactFmod
