// What the machine itself can do, measured in the same run as the figures:
// native C++ loops compiled for this host's CPU (-march=native, fused
// multiply-adds on), run on every CPU the process may use. A figure's
// metric names the limit it is read against (Metric::Limit), and the
// table shows Weft's median as a fraction of the limit's median beside the
// ratios to other platforms (docs/benchmarks.md, "The limit column").
#ifndef WEFT_BENCH_NATIVE_LIMITS_H
#define WEFT_BENCH_NATIVE_LIMITS_H

#include <string>
#include <vector>

namespace weft::bench {

struct NativeLimit {
  const char *Name; ///< what metrics name: "fma.float", "stream.copy", ...
  const char *Unit; ///< the unit of the metrics read against it
  const char *What; ///< one line for --list and the docs
  /// Whether it bounds the figures of --quick runs too. A stream limit does
  /// not: a --quick figure's data (16 MiB and less) may stay in the cache.
  bool BoundsQuickRuns = false;
};

/// How far above its limit's highest measurement a figure's lowest may be
/// before the limit counts as wrong (weft_bench then fails): the noise of
/// runs of a few tenths of a second on a shared machine, and then some.
constexpr double LimitSlack = 1.25;

/// Every limit, in report order.
const std::vector<NativeLimit> &nativeLimits();

/// One measurement of the limit called Name, in its unit (0 for an unknown
/// name). Quick: smaller arrays and shorter runs.
double measureNativeLimit(const std::string &Name, bool Quick);

/// The CPUs the process may run on (its affinity mask).
unsigned hostThreads();

} // namespace weft::bench

#endif // WEFT_BENCH_NATIVE_LIMITS_H
