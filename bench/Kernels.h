// The OpenCL C sources weft_bench runs, in one place so that a reader can see
// every kernel a figure times (and paste one into a bug report) without
// reading host code. Sizes that the compiler should see as constants come in
// as -D options from the figures.
#ifndef WEFT_BENCH_KERNELS_H
#define WEFT_BENCH_KERNELS_H

#include <cstdint>
#include <string>

namespace weft::bench::kernels {

/// `empty` (writes one word so that it can be verified) and `tiny`.
extern const char *const Launch;
/// `streamCopy` and `streamTriad`.
extern const char *const Stream;
/// `sgemmNaive`, `sgemmGuarded` and `sgemmTiled`; needs -DTILE=n.
extern const char *const Sgemm;
/// `reduceSum` and `reduceTree`: per-work-group sums through __local memory.
extern const char *const Reduce;
/// `atomicContention`: atomic_add on a few global counters.
extern const char *const Atomics;
/// `barrierStencil`: a __local ring, four barriers per loop iteration; -DWG=n.
extern const char *const Barriers;
/// `mad1` ... `mad16`: the same multiply-add chain on REAL, REAL2 ... REAL16;
/// -DITERS=n -DREAL=float|double (-DREAL_IS_DOUBLE=1 for double).
extern const char *const Vectors;
/// `math`: exp, sin, log1p, atan2, pow, cbrt and tanh of each element, and
/// `remainders`: fmod and remainder of each element, in REAL; build with
/// -DREAL=float, or -DREAL=double -DREAL_IS_DOUBLE=1.
extern const char *const Math;
/// `filter`: a TAPS-tap FIR filter, its coefficients in __constant memory.
extern const char *const Filter;

/// `chase`: each work-item walks a linked list the host built in SVM, and
/// `ping`: a value passed back and forth with the host through
/// fine-grained SVM atomics; build with -cl-std=CL2.0 or CL3.0.
extern const char *const Svm;

/// `pipeSend` and `pipeReceive`: one packet per work-item into and out of
/// a pipe; build with -cl-std=CL2.0 or CL3.0 on a device with pipes.
extern const char *const Pipe;
/// Figure 18: `subGroupReduce` (sub_group_reduce_add, an atomic_add per
/// sub-group into its group's sum), `subGroupScan` (each group's inclusive
/// prefix sums from sub_group_scan_inclusive_add and the sub-groups'
/// totals in __local memory) and `workGroupScan` (the same from
/// work_group_scan_inclusive_add); build with -cl-std=CL3.0 on a device
/// with sub-groups and work-group collectives.
extern const char *const SubGroups;
/// Figure 17: a parent whose work-items each enqueue a child kernel
/// (enqueueParent), and a tree of children four levels deep (enqueueTree).
extern const char *const Enqueue;

/// `blurBuffer`: a 5x5 binomial blur of RGBA bytes in a buffer into float4s;
/// built with -DIMAGES=1 also `blurImage`, the same computation from a
/// CL_UNORM_INT8 image into a CL_FLOAT one, and `resizeBilinear`, a resize
/// done by a linear-filtering sampler. Build with -cl-std=CL1.2.
extern const char *const Image;

/// A realistic program of about 300 lines (structs, 17 helpers, 12 kernels)
/// whose text is unique per Salt, so that no compiler cache can hit on it.
/// Its kernel `saltProbe(Out, In)` writes hashUint(In[i]) ^ Salt.
std::string buildSource(uint32_t Salt);
/// The host twin of the program's hashUint.
uint32_t hashUint(uint32_t X);

} // namespace weft::bench::kernels

#endif // WEFT_BENCH_KERNELS_H
