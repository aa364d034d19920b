// VectorMath: vector forms of the libm functions the builtins call, for the
// loop vectorizer. A kernel's work-item loop that calls acosf can only be
// vectorized if acosf has a vector form of the loop's width; glibc's
// libmvec (part of libc6, so on every Debian machine) has them for most of
// the transcendental functions, in SSE, AVX, AVX2 and AVX-512 widths.
//
// Only functions whose libmvec forms meet OpenCL C's accuracy bounds
// (OpenCL C 3.0, 7.4) with an ulp to spare are mapped. Double sin, cos,
// log1p, tgamma and lgamma, which libmvec lacks or has too coarse, take
// SLEEF's 1.0-ulp forms. The tables in VectorMath.cpp give the measured
// errors.
#pragma once

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Target/TargetMachine.h>

namespace weft::compiler::VectorMath {

/// True when libmvec can be loaded into the process (x86-64 glibc hosts).
/// The first call loads it, so that the JIT can resolve its symbols.
bool available();

/// The shared object the JIT resolves the vector forms from.
constexpr const char *LibraryName = "libmvec.so.1";

/// The shared object the JIT resolves SLEEF's forms from. Weft links it
/// (JitExecutable defines the scalar Sleef_lgamma_u10 the builtins call),
/// so it is always there; its forms have SLEEF's own names
/// (Sleef_sind4_u10avx2), which cannot be confused with libmvec's.
constexpr const char *SleefLibraryName = "libsleef.so.3";

/// SLEEF's scalar lgamma, which the builtins call by this name (MathShared.h)
/// and the JIT resolves from Weft's own link to SLEEF.
constexpr const char *SleefScalarLgamma = "Sleef_lgamma_u10";

/// Adds to TLII the vector forms whose instruction set TM's target has:
/// SLEEF's, and libmvec's when available().
void addMappings(llvm::TargetLibraryInfoImpl &TLII, const llvm::TargetMachine &TM);

} // namespace weft::compiler::VectorMath
