// printf for kernels: formatting one call (OpenCL C 3.0, 6.15.14) and the
// output of one kernel launch.
//
// A kernel's printf arrives here through WorkGroupContext::Printf with its
// arguments described (runtime/program/KernelAbi.h, compiler/workgroup/PrintfPass.cpp). The
// call is formatted at once, by the worker that runs the work-item, into
// that worker's buffer of the launch; the launch writes every buffer to
// stdout before its command ends. A work-item runs on one worker from
// start to end, so its lines come out complete and in the order it printed
// them; lines of different work-items are not ordered, as the
// specification allows.
#pragma once

#include "runtime/program/KernelAbi.h"

#include <tbb/enumerable_thread_specific.h>

#include <cstddef>
#include <string>

namespace weft::cpu {

/// Appends the output of printf(Format, Args...) to Out. Returns 0, or -1
/// when the arguments do not fit the format (too few, a vector of another
/// length); what could be formatted before that is kept. Conversions:
///   %[flags][width][.precision][vN][length]conv with conv one of
///   d i o u x X c s p f F e E g G a A, flags "-+ #0", width and precision
///   numbers or '*', N in 2 3 4 8 16, length hh h hl l ll z t j L.
/// A vector conversion formats each element with the same flags, width and
/// precision and separates them by ','. A value converts to what the
/// conversion and its length modifier name (an int for %hhd is narrowed to
/// a signed char, a float for %f widened to double), as C's printf would
/// after the default promotions. An integer narrower than the conversion
/// (SPIR-V does not promote) is sign-extended for d and i and zero-extended
/// for o, u, x and X.
int formatPrintf(std::string &Out, const char *Format, const rt::PrintfArg *Args, uint32_t Count);

/// The printf output of one kernel launch.
class PrintfOutput {
public:
  /// The buffer of the calling worker: the PrintfSink of its work-groups.
  void *sink() { return &Buffers.local(); }
  /// The WorkGroupContext::Printf entry.
  static int print(void *Sink, const char *Format, const rt::PrintfArg *Args, uint32_t Count);
  /// Writes every worker's output to stdout (and flushes stdout). Call once
  /// no work-group of the launch runs any more.
  void flush();

  /// A worker's output goes out early once it holds this much (the
  /// device's CL_DEVICE_PRINTF_BUFFER_SIZE).
  static constexpr size_t BufferSize = size_t(1) << 20;

private:
  static void write(std::string &Text);
  tbb::enumerable_thread_specific<std::string> Buffers;
};

} // namespace weft::cpu
