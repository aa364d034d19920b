// weft_bench: the same benchmarks on every OpenCL platform the ICD loader
// exposes, in one process, interleaved, so that Weft can be compared with
// another implementation (PoCL on Debian) on the same machine at the same
// moment. Every figure verifies the kernel's output before a time counts; a
// wrong output is reported as FAILED and makes the exit status 1.
//
//   weft_bench [--platform NAME]... [--reps N] [--quick] [--only NAME[,NAME]]
//              [--csv FILE] [--json FILE] [--timeout SECONDS] [--list]
//              [--cores ROUNDS]
//
// Interleaving: for each figure, each device is prepared (kernels built,
// warm-up run checked, batch sizes calibrated); then for each repetition
// every device runs once in turn, the first device rotating, so that a
// slow drift of the machine (thermal, another build) spreads over all.
// Docs: docs/benchmarks.md.
#include "Cores.h"
#include "Figures.h"
#include "NativeLimits.h"
#include "Report.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

namespace weft::bench {

std::vector<std::unique_ptr<Figure>> makeAllFigures() {
  std::vector<std::unique_ptr<Figure>> All;
  All.push_back(makeLaunchLatency());
  All.push_back(makeLaunchThroughput());
  All.push_back(makeBufferBandwidth());
  All.push_back(makeStream());
  All.push_back(makeSgemm());
  All.push_back(makeReduction());
  All.push_back(makeAtomics());
  All.push_back(makeBarriers());
  All.push_back(makeVectors());
  All.push_back(makeMath());
  All.push_back(makeRemainders());
  All.push_back(makeFilter());
  All.push_back(makeBuild());
  All.push_back(makeSvm());
  All.push_back(makePipe());
  All.push_back(makeImage());
  All.push_back(makeEnqueue());
  All.push_back(makeSubGroups());
  return All;
}

namespace {

struct Options {
  std::vector<std::string> Platforms;
  std::vector<std::string> Only;
  std::string CsvPath, JsonPath;
  Config C;
  bool RepsGiven = false;
  bool List = false;
  double TimeoutSeconds = 600;
  /// --cores: rounds of one CPU against all (Cores.h), 0 for none; and
  /// the options each of those runs gets.
  unsigned CoresRounds = 0;
  std::vector<std::string> RunArgs;
};

const char *const Usage =
    "usage: weft_bench [--platform NAME]... [--reps N] [--quick] [--only NAME[,NAME]]\n"
    "                  [--csv FILE] [--json FILE] [--timeout SECONDS] [--list]\n"
    "  --platform NAME  only platforms whose name contains NAME (repeatable; 'PoCL' works)\n"
    "  --reps N         timed repetitions per figure and device (default 5, --quick 3)\n"
    "  --quick          smaller sizes and shorter batches (a smoke run)\n"
    "  --only NAMES     only these figures (see --list)\n"
    "  --csv, --json    also write every repetition to FILE\n"
    "  --timeout S      give up (exit 3) if one step takes longer (default 600)\n"
    "  --cores ROUNDS   one CPU against all of them: ROUNDS pairs of runs of the figures\n"
    "                   (default --only latency,throughput), one on the first CPU of the\n"
    "                   process, one on all (no --csv or --json)\n";

std::vector<std::string> splitCommas(const std::string &S) {
  std::vector<std::string> Parts;
  size_t Start = 0;
  while (Start <= S.size()) {
    size_t End = S.find(',', Start);
    if (End == std::string::npos)
      End = S.size();
    if (End > Start)
      Parts.push_back(S.substr(Start, End - Start));
    Start = End + 1;
  }
  return Parts;
}

/// Parses argv into O; prints the problem and returns false on a bad option.
bool parseOptions(int Argc, char **Argv, Options &O) {
  for (int I = 1; I < Argc; ++I) {
    const int At = I; // the option and its value: Argv[At..I]
    std::string Arg = Argv[I];
    auto Value = [&](std::string &Out) {
      if (I + 1 >= Argc) {
        std::fprintf(stderr, "weft_bench: %s needs a value\n%s", Arg.c_str(), Usage);
        return false;
      }
      Out = Argv[++I];
      return true;
    };
    auto PositiveValue = [&](unsigned &Out) {
      std::string Text;
      if (!Value(Text))
        return false;
      const int N = std::atoi(Text.c_str());
      if (N < 1) {
        std::fprintf(stderr, "weft_bench: %s needs a positive number\n", Arg.c_str());
        return false;
      }
      Out = static_cast<unsigned>(N);
      return true;
    };
    std::string V;
    if (Arg == "--platform") {
      if (!Value(V))
        return false;
      O.Platforms.push_back(V);
    } else if (Arg == "--only") {
      if (!Value(V))
        return false;
      for (const std::string &Name : splitCommas(V))
        O.Only.push_back(Name);
    } else if (Arg == "--reps") {
      if (!PositiveValue(O.C.Reps))
        return false;
      O.RepsGiven = true;
    } else if (Arg == "--timeout") {
      if (!Value(V))
        return false;
      O.TimeoutSeconds = std::atof(V.c_str());
    } else if (Arg == "--csv") {
      if (!Value(O.CsvPath))
        return false;
    } else if (Arg == "--json") {
      if (!Value(O.JsonPath))
        return false;
    } else if (Arg == "--cores") {
      if (!PositiveValue(O.CoresRounds))
        return false;
      continue; // not an option of the runs
    } else if (Arg == "--quick") {
      O.C.Quick = true;
    } else if (Arg == "--list") {
      O.List = true;
    } else if (Arg == "-h" || Arg == "--help") {
      std::fputs(Usage, stdout);
      std::exit(0);
    } else {
      std::fprintf(stderr, "weft_bench: unknown option %s\n%s", Arg.c_str(), Usage);
      return false;
    }
    O.RunArgs.insert(O.RunArgs.end(), Argv + At, Argv + I + 1);
  }
  if (O.CoresRounds && (!O.CsvPath.empty() || !O.JsonPath.empty() || O.List)) {
    std::fprintf(stderr, "weft_bench: --cores writes no --csv or --json, and lists nothing\n");
    return false;
  }
  if (O.C.Quick) {
    O.C.TargetSeconds = 0.03;
    if (!O.RepsGiven)
      O.C.Reps = 3;
  }
  return true;
}

/// Ends the process if one step (a prepare or a repetition on one device)
/// runs past the timeout: a hung kernel should fail a CI job, not stall it.
class Watchdog {
public:
  explicit Watchdog(double TimeoutSeconds) : Timeout(TimeoutSeconds), Thread([this] { watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> Lock(M);
      Stop = true;
    }
    Wake.notify_all();
    Thread.join();
  }
  void step(const std::string &What) {
    std::lock_guard<std::mutex> Lock(M);
    Current = What;
    Deadline = now() + Timeout;
  }

private:
  void watch() {
    std::unique_lock<std::mutex> Lock(M);
    while (!Wake.wait_for(Lock, std::chrono::milliseconds(500), [this] { return Stop; }))
      if (!Current.empty() && now() > Deadline) {
        std::fprintf(stderr, "weft_bench: %s took longer than %.0f s; giving up\n", Current.c_str(),
                     Timeout);
        std::fflush(stdout);
        std::_Exit(3);
      }
  }
  const double Timeout;
  std::mutex M;
  std::condition_variable Wake;
  bool Stop = false;
  std::string Current;
  double Deadline = 0;
  std::thread Thread;
};

/// Runs Body, turning any exception into a FAILED cell for every metric of
/// the figure on device Index.
template <typename F>
bool guarded(F &&Body, std::vector<Row *> &Rows, size_t Index, const std::string &Where) {
  try {
    Body();
    return true;
  } catch (const std::exception &E) {
    std::string Why = Where + ": " + E.what();
    std::fprintf(stderr, "\nweft_bench: FAILED %s\n", Why.c_str());
    for (Row *R : Rows) {
      R->Cells[Index].Failed = true;
      R->Cells[Index].Why = Why;
      R->Cells[Index].Values.clear();
    }
    return false;
  }
}

void runFigure(Figure &F, std::vector<std::unique_ptr<Device>> &Devices, const Config &C,
               Watchdog &Dog, Report &Out) {
  std::vector<Row *> Rows;
  for (const Metric &M : F.metrics()) {
    Out.Rows.push_back(Row{M, std::vector<Cell>(Devices.size()), Cell{}, {}});
  }
  for (size_t I = Out.Rows.size() - F.metrics().size(); I < Out.Rows.size(); ++I)
    Rows.push_back(&Out.Rows[I]);

  std::vector<std::unique_ptr<FigureRun>> Runs(Devices.size());
  for (size_t D = 0; D < Devices.size(); ++D) {
    std::string Where = std::string(F.name()) + " on " + Devices[D]->Label + " (prepare)";
    Dog.step(Where);
    guarded([&] { Runs[D] = F.prepare(*Devices[D], C); }, Rows, D, Where);
  }
  for (unsigned Rep = 0; Rep < C.Reps; ++Rep)
    for (size_t K = 0; K < Devices.size(); ++K) {
      size_t D = (K + Rep) % Devices.size();
      if (!Runs[D])
        continue;
      std::string Where = std::string(F.name()) + " on " + Devices[D]->Label + " (repetition " +
                          std::to_string(Rep + 1) + ")";
      Dog.step(Where);
      bool Ok = guarded(
          [&] {
            std::vector<Sample> Samples = Runs[D]->runOnce(Rep + 1);
            if (Samples.size() != Rows.size())
              throw Failure("internal: wrong number of samples");
            for (size_t M = 0; M < Rows.size(); ++M) {
              Cell &Into = Rows[M]->Cells[D];
              if (Into.Failed || Samples[M].Skipped)
                continue;
              if (Samples[M].Failed.empty()) {
                Into.Values.push_back(Samples[M].Value);
                continue;
              }
              Into.Failed = true;
              Into.Why = Samples[M].Failed;
              Into.Values.clear();
              std::fprintf(stderr, "\nweft_bench: FAILED %s on %s %s\n", Rows[M]->M.Name.c_str(),
                           Devices[D]->Label.c_str(), Into.Why.c_str());
            }
          },
          Rows, D, Where);
      if (!Ok)
        Runs[D].reset();
    }
  Dog.step("");
}

/// A limit must bound what it is read against: Weft's lowest repetition of
/// a figure more than LimitSlack above the limit's highest says the limit
/// measured less than the machine does (as 512-bit chains spilling on AVX2
/// once did), and fails the run. In --quick runs, only the limits that
/// bound small data (NativeLimit::BoundsQuickRuns).
void checkLimits(const Config &C, Report &Out) {
  const int Weft = weftColumn(Out.Columns);
  if (Weft < 0)
    return;
  for (Row &R : Out.Rows) {
    const Cell &Figure = R.Cells[Weft];
    if (R.M.Limit.empty() || !R.M.HigherIsBetter || Figure.Failed || Figure.Values.empty() ||
        R.Limit.Values.empty())
      continue;
    auto L = std::find_if(nativeLimits().begin(), nativeLimits().end(),
                          [&](const NativeLimit &N) { return R.M.Limit == N.Name; });
    if (C.Quick && (L == nativeLimits().end() || !L->BoundsQuickRuns))
      continue;
    const double Lowest = *std::min_element(Figure.Values.begin(), Figure.Values.end());
    const double Highest = *std::max_element(R.Limit.Values.begin(), R.Limit.Values.end());
    if (Lowest > Highest * LimitSlack) {
      char Why[160];
      std::snprintf(Why, sizeof Why,
                    "Weft's lowest %s is %s, the limit's highest %s: the limit does not bound "
                    "it",
                    R.M.Unit.c_str(), number(Lowest).c_str(), number(Highest).c_str());
      R.LimitBroken = Why;
    }
  }
}

/// The native limits the report's metrics are read against, each measured
/// Reps times (once for all the metrics that name it).
void measureLimits(const Config &C, Watchdog &Dog, Report &Out) {
  Out.LimitThreads = hostThreads();
  std::map<std::string, Cell> Measured;
  for (const Row &R : Out.Rows)
    if (!R.M.Limit.empty())
      Measured[R.M.Limit];
  if (Measured.empty())
    return;
  std::fprintf(stderr, "[limits] %zu native limits on %u CPUs ...", Measured.size(),
               Out.LimitThreads);
  double Start = now();
  for (unsigned Rep = 0; Rep < C.Reps; ++Rep)
    for (auto &[Name, Into] : Measured) {
      Dog.step("native limit " + Name);
      Into.Values.push_back(measureNativeLimit(Name, C.Quick));
    }
  Dog.step("");
  std::fprintf(stderr, " %.1f s\n", now() - Start);
  for (Row &R : Out.Rows)
    if (!R.M.Limit.empty())
      R.Limit = Measured[R.M.Limit];
  checkLimits(C, Out);
}

} // namespace

int benchMain(int Argc, char **Argv) {
  Options O;
  if (!parseOptions(Argc, Argv, O))
    return 2;

  if (O.CoresRounds) {
    std::vector<std::string> Args = O.RunArgs;
    if (O.Only.empty())
      Args.insert(Args.end(), {"--only", "latency,throughput"});
    return compareCores(Args, O.CoresRounds);
  }

  std::vector<std::unique_ptr<Figure>> Figures = makeAllFigures();
  if (O.List) {
    for (const auto &F : Figures) {
      std::printf("%-11s", F->name());
      for (const Metric &M : F->metrics())
        std::printf(" %s (%s%s%s)", M.Name.c_str(), M.Unit.c_str(),
                    M.Limit.empty() ? "" : ", limit ", M.Limit.c_str());
      std::printf("\n");
    }
    std::printf("limits (native C++ for this CPU, on every CPU of the process):\n");
    for (const NativeLimit &L : nativeLimits())
      std::printf("  %-12s %s: %s\n", L.Name, L.Unit, L.What);
    return 0;
  }
  for (const std::string &Name : O.Only)
    if (std::none_of(Figures.begin(), Figures.end(),
                     [&](const auto &F) { return Name == F->name(); })) {
      std::fprintf(stderr, "weft_bench: no figure named '%s' (see --list)\n", Name.c_str());
      return 2;
    }
  if (!O.Only.empty())
    Figures.erase(std::remove_if(Figures.begin(), Figures.end(),
                                 [&](const auto &F) {
                                   return std::find(O.Only.begin(), O.Only.end(), F->name()) ==
                                          O.Only.end();
                                 }),
                  Figures.end());

  std::vector<std::unique_ptr<Device>> Devices;
  try {
    Devices = discoverDevices(O.Platforms);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "weft_bench: %s\n", E.what());
    return 2;
  }
  if (Devices.empty()) {
    std::fprintf(stderr, "weft_bench: no OpenCL device%s (is OCL_ICD_VENDORS set?)\n",
                 O.Platforms.empty() ? "" : " on the platforms asked for");
    return 2;
  }

  // Weft's column first, the others in the loader's order.
  std::stable_partition(Devices.begin(), Devices.end(), [](const auto &D) { return D->IsWeft; });

  Report Out;
  Out.Reps = O.C.Reps;
  Out.Quick = O.C.Quick;
  for (const auto &D : Devices)
    Out.Columns.push_back(Column{D->Label, D->PlatformName, D->DeviceName, D->IsWeft});

  {
    Watchdog Dog(O.TimeoutSeconds);
    for (size_t I = 0; I < Figures.size(); ++I) {
      std::fprintf(stderr, "[%zu/%zu] %s ...", I + 1, Figures.size(), Figures[I]->name());
      std::fflush(stderr);
      double Start = now();
      runFigure(*Figures[I], Devices, O.C, Dog, Out);
      std::fprintf(stderr, " %.1f s\n", now() - Start);
    }
    measureLimits(O.C, Dog, Out);
  }

  Out.printTable(stdout);
  bool Written = true;
  if (!O.CsvPath.empty())
    Written &= Out.writeCsv(O.CsvPath);
  if (!O.JsonPath.empty())
    Written &= Out.writeJson(O.JsonPath);
  if (Out.anyFailed())
    return 1;
  return Written ? 0 : 2;
}

} // namespace weft::bench

int main(int Argc, char **Argv) { return weft::bench::benchMain(Argc, Argv); }
