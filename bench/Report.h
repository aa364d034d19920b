// What weft_bench prints and writes: the table for people (median and
// min-max per platform, Weft's ratio to every other platform, read with the
// metric's direction), and CSV/JSON with every repetition for tracking.
#ifndef WEFT_BENCH_REPORT_H
#define WEFT_BENCH_REPORT_H

#include "Harness.h"

#include <cstdio>
#include <string>
#include <vector>

namespace weft::bench {

/// One platform/device column.
struct Column {
  std::string Label, PlatformName, DeviceName;
  bool IsWeft = false;
};

/// One metric on one device: its repetitions, or why it FAILED.
struct Cell {
  std::vector<double> Values;
  bool Failed = false;
  std::string Why;
};

/// One metric across every column, and its native limit (M.Limit).
struct Row {
  Metric M;
  std::vector<Cell> Cells; ///< one per Column
  Cell Limit;              ///< empty if M.Limit is
  /// Non-empty when the limit does not bound Weft's figure: why (a FAILED
  /// run, as a wrong result is).
  std::string LimitBroken;
};

/// S padded with spaces to Width terminal columns.
std::string pad(const std::string &S, size_t Width);
/// About four significant digits, never exponents.
std::string number(double V);
/// The index of Weft's column, -1 if there is none.
int weftColumn(const std::vector<Column> &Columns);

struct Report {
  std::vector<Column> Columns;
  std::vector<Row> Rows;
  unsigned Reps = 0;
  bool Quick = false;
  /// The CPUs the native limits ran on.
  unsigned LimitThreads = 0;

  /// True if any cell of any row FAILED.
  bool anyFailed() const;
  void printTable(std::FILE *Out) const;
  /// Both return false (and say why on stderr) if the file cannot be written.
  bool writeCsv(const std::string &Path) const;
  bool writeJson(const std::string &Path) const;
};

} // namespace weft::bench

#endif // WEFT_BENCH_REPORT_H
