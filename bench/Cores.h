// weft_bench --cores N: the same figures on one CPU and on every CPU of the
// process, in separate runs of weft_bench (a device counts its compute
// units once, when the process starts), N rounds of one run each way,
// alternating which comes first. Each run's median is one sample; the
// report gives the median of each side and the median of the rounds'
// ratios, read in the metric's direction (above 1: every CPU does better).
// Paired rounds are what make the comparison hold on a machine whose speed
// swings from one second to the next, as a virtual machine's does: two
// runs far apart compare two moments, not two configurations.
#ifndef WEFT_BENCH_CORES_H
#define WEFT_BENCH_CORES_H

#include <string>
#include <vector>

namespace weft::bench {

/// Runs the comparison: Args are the options of each run (without --cores,
/// --csv or --json), Rounds the number of rounds. Returns the exit status.
int compareCores(const std::vector<std::string> &Args, unsigned Rounds);

} // namespace weft::bench

#endif // WEFT_BENCH_CORES_H
