// weft_bench --cores: one CPU against all of them, in paired runs (Cores.h).
#include "Cores.h"
#include "Report.h"

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <sstream>

namespace weft::bench {

namespace {

/// The fields of one line of weft_bench's CSV (Report::writeCsv quotes a
/// field with a comma, a quote or a newline in it, and doubles its quotes).
std::vector<std::string> csvFields(const std::string &Line) {
  std::vector<std::string> Fields(1);
  bool Quoted = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    const char C = Line[I];
    if (Quoted && C == '"' && I + 1 < Line.size() && Line[I + 1] == '"') {
      Fields.back() += '"';
      ++I;
    } else if (C == '"') {
      Quoted = !Quoted;
    } else if (C == ',' && !Quoted) {
      Fields.emplace_back();
    } else {
      Fields.back() += C;
    }
  }
  return Fields;
}

/// One metric on one column: each run's median, per side, by round (NaN
/// where the run had none).
struct Series {
  std::string Unit;
  bool HigherIsBetter = true;
  std::vector<double> One, All;
};

/// Every metric on every column (the limits left out).
using SeriesTable = std::map<std::pair<std::string, std::string>, Series>;

/// Adds the medians of a run's CSV to Table, as round Round of the side
/// OneSide says; false if the file has no header.
bool readRun(const std::string &Path, SeriesTable &Table, bool OneSide, unsigned Round) {
  std::ifstream F(Path);
  std::string Line;
  if (!std::getline(F, Line))
    return false;
  while (std::getline(F, Line)) {
    const std::vector<std::string> Fields = csvFields(Line);
    // metric,unit,higher_is_better,column,platform,device,status,median,...
    if (Fields.size() < 8 || Fields[3] == "limit")
      continue;
    Series &S = Table[{Fields[0], Fields[3]}];
    S.Unit = Fields[1];
    S.HigherIsBetter = Fields[2] == "1";
    std::vector<double> &Into = OneSide ? S.One : S.All;
    Into.resize(Round, NAN); // a metric an earlier run lacked
    Into.push_back(Fields[6] == "ok" ? std::atof(Fields[7].c_str()) : NAN);
  }
  return true;
}

/// Runs weft_bench with Args on the CPUs of Mask, its CSV to CsvPath and
/// its output to LogPath; its exit status (or -1 if it did not run).
int runOnCpus(const std::vector<std::string> &Args, const cpu_set_t &Mask,
              const std::string &CsvPath, const std::string &LogPath) {
  std::vector<std::string> Argv{"weft_bench"};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  Argv.insert(Argv.end(), {"--csv", CsvPath});
  std::vector<char *> Pointers;
  for (std::string &A : Argv)
    Pointers.push_back(A.data());
  Pointers.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t Child = fork();
  if (Child < 0)
    return -1;
  if (Child == 0) {
    const int Log = open(LogPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (Log < 0 || dup2(Log, 1) < 0 || dup2(Log, 2) < 0 ||
        sched_setaffinity(0, sizeof(Mask), &Mask) != 0)
      _exit(127);
    execv("/proc/self/exe", Pointers.data());
    _exit(127);
  }
  int Status = 0;
  if (waitpid(Child, &Status, 0) != Child)
    return -1;
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
}

std::string slurp(const std::string &Path) {
  std::ifstream F(Path);
  std::stringstream S;
  S << F.rdbuf();
  return S.str();
}

/// The finite values of V.
std::vector<double> finite(const std::vector<double> &V) {
  std::vector<double> Out;
  for (double X : V)
    if (std::isfinite(X))
      Out.push_back(X);
  return Out;
}

std::string spread(const std::vector<double> &V) {
  const std::vector<double> F = finite(V);
  if (F.empty())
    return "-";
  const Summary S = summarize(F);
  return number(S.Median) + " [" + number(S.Min) + "-" + number(S.Max) + "]";
}

} // namespace

int compareCores(const std::vector<std::string> &Args, unsigned Rounds) {
  cpu_set_t All;
  CPU_ZERO(&All);
  if (sched_getaffinity(0, sizeof(All), &All) != 0 || CPU_COUNT(&All) < 2) {
    std::fprintf(stderr, "weft_bench: --cores needs a process allowed on two CPUs or more\n");
    return 2;
  }
  int First = 0;
  while (!CPU_ISSET(First, &All))
    ++First;
  cpu_set_t One;
  CPU_ZERO(&One);
  CPU_SET(First, &One);

  char Dir[] = "/tmp/weft_bench_cores.XXXXXX";
  if (!mkdtemp(Dir)) {
    std::fprintf(stderr, "weft_bench: cannot make a directory in /tmp\n");
    return 2;
  }
  const std::string Csv = std::string(Dir) + "/run.csv", Log = std::string(Dir) + "/run.log";
  SeriesTable Table;
  int Status = 0;
  for (unsigned Round = 0; Round < Rounds && Status == 0; ++Round) {
    std::fprintf(stderr, "[cores] round %u/%u ...", Round + 1, Rounds);
    std::fflush(stderr);
    const double Start = now();
    // Which side comes first alternates, so that a drift of the machine
    // falls on both.
    for (int Side = 0; Side < 2; ++Side) {
      const bool OneSide = (Side == 0) == (Round % 2 == 0);
      const int Code = runOnCpus(Args, OneSide ? One : All, Csv, Log);
      if (Code != 0 || !readRun(Csv, Table, OneSide, Round)) {
        std::fprintf(stderr, "\nweft_bench: the run on %s failed (status %d):\n%s",
                     OneSide ? "one CPU" : "all CPUs", Code, slurp(Log).c_str());
        Status = 1;
        break;
      }
    }
    std::fprintf(stderr, " %.1f s\n", now() - Start);
  }
  std::remove(Csv.c_str());
  std::remove(Log.c_str());
  rmdir(Dir);
  if (Status != 0)
    return Status;

  std::printf("weft_bench --cores: %u rounds, each a run on CPU %d alone and one on all %d CPUs "
              "of the process (which first alternates); the median of each run is one sample\n"
              "all/one: the median over rounds of the round's ratio, read in the metric's "
              "direction (above 1: all CPUs do better)\n\n",
              Rounds, First, CPU_COUNT(&All));
  const size_t W[] = {26, 11, 7, 28, 28};
  std::printf("%s%s%s%s%s%s\n", pad("benchmark", W[0]).c_str(), pad("unit", W[1]).c_str(),
              pad("column", W[2]).c_str(), pad("one CPU", W[3]).c_str(),
              pad("all CPUs", W[4]).c_str(), "all/one [min-max]");
  for (const auto &[Key, S] : Table) {
    std::vector<double> Ratios;
    for (size_t I = 0; I < S.One.size() && I < S.All.size(); ++I)
      if (std::isfinite(S.One[I]) && std::isfinite(S.All[I]) && S.One[I] > 0 && S.All[I] > 0)
        Ratios.push_back(S.HigherIsBetter ? S.All[I] / S.One[I] : S.One[I] / S.All[I]);
    std::printf("%s%s%s%s%s%s\n", pad(Key.first, W[0]).c_str(), pad(S.Unit, W[1]).c_str(),
                pad(Key.second, W[2]).c_str(), pad(spread(S.One), W[3]).c_str(),
                pad(spread(S.All), W[4]).c_str(), spread(Ratios).c_str());
  }
  return 0;
}

} // namespace weft::bench
