// VectorMath: vector forms of the libm functions the builtins call, for the
// loop vectorizer. A kernel's work-item loop that calls acosf can only be
// vectorized if acosf has a vector form of the loop's width; glibc's
// libmvec (part of libc6, so on every Debian machine) has them for most of
// the transcendental functions, in SSE, AVX, AVX2 and AVX-512 widths.
//
// Only functions whose libmvec forms meet OpenCL C's accuracy bounds
// (OpenCL C 3.0, 7.4) are mapped; the rest stay scalar libm calls. The
// table in VectorMath.cpp gives the measured errors.
#pragma once

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Target/TargetMachine.h>

namespace weft::compiler::VectorMath {

/// True when libmvec can be loaded into the process (x86-64 glibc hosts).
/// The first call loads it, so that the JIT can resolve its symbols.
bool available();

/// The shared object the JIT resolves the vector forms from.
constexpr const char *LibraryName = "libmvec.so.1";

/// Adds to TLII the vector forms whose instruction set TM's target has,
/// when available(); nothing otherwise.
void addMappings(llvm::TargetLibraryInfoImpl &TLII, const llvm::TargetMachine &TM);

} // namespace weft::compiler::VectorMath
