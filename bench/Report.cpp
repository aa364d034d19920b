// The table, CSV and JSON writers of weft_bench. The table shows medians
// with their min-max range (five repetitions are too few for a meaningful
// IQR; the files carry quartiles and every value anyway) and, for each
// platform other than Weft, the ratio of medians Weft/other followed by what
// it means given the metric's direction ("2.1x faster" or "1.4x slower").
#include "Report.h"

#include <algorithm>
#include <cmath>
#include <fstream>

namespace weft::bench {

namespace {

/// Columns of the terminal: UTF-8 code points ("µs" is two bytes, one column).
size_t displayWidth(const std::string &S) {
  size_t Width = 0;
  for (unsigned char C : S)
    Width += (C & 0xC0) != 0x80;
  return Width;
}

} // namespace

std::string pad(const std::string &S, size_t Width) {
  size_t W = displayWidth(S);
  return W >= Width ? S : S + std::string(Width - W, ' ');
}

std::string number(double V) {
  char Buf[64];
  double A = std::fabs(V);
  const char *Format = A >= 1000 ? "%.0f" : A >= 100 ? "%.1f" : A >= 10 ? "%.2f" : "%.3f";
  std::snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

namespace {

std::string cellText(const Cell &C) {
  if (C.Failed)
    return "FAILED";
  if (C.Values.empty())
    return "-";
  Summary S = summarize(C.Values);
  return number(S.Median) + " [" + number(S.Min) + "-" + number(S.Max) + "]";
}

bool usable(const Cell &C) { return !C.Failed && !C.Values.empty(); }

/// Weft's median over Other's, or NaN if either is missing.
double ratio(const Cell &Weft, const Cell &Other) {
  if (!usable(Weft) || !usable(Other))
    return NAN;
  double Denominator = summarize(Other.Values).Median;
  return Denominator > 0 ? summarize(Weft.Values).Median / Denominator : NAN;
}

std::string ratioText(double R, bool HigherIsBetter) {
  if (!std::isfinite(R) || R <= 0)
    return "n/a";
  double Speed = HigherIsBetter ? R : 1 / R;
  char Buf[64];
  if (Speed >= 1)
    std::snprintf(Buf, sizeof(Buf), "%.2f (%.2fx faster)", R, Speed);
  else
    std::snprintf(Buf, sizeof(Buf), "%.2f (%.2fx slower)", R, 1 / Speed);
  return Buf;
}

/// Weft's median as a share of the limit's ("12.3%"), for a higher-is-better
/// metric with a limit.
std::string limitShareText(const Cell &Weft, const Cell &Limit) {
  double R = ratio(Weft, Limit);
  if (!std::isfinite(R) || R <= 0)
    return "n/a";
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), R >= 0.1 ? "%.0f%%" : "%.1f%%", 100 * R);
  return Buf;
}

std::string csvField(const std::string &S) {
  if (S.find_first_of(",\"\n") == std::string::npos)
    return S;
  std::string Q = "\"";
  for (char C : S)
    Q += C == '"' ? std::string("\"\"") : std::string(1, C);
  return Q + "\"";
}

std::string jsonString(const std::string &S) {
  std::string J = "\"";
  for (unsigned char C : S) {
    if (C == '"' || C == '\\')
      J += std::string("\\") + static_cast<char>(C);
    else if (C < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
      J += Buf;
    } else
      J += static_cast<char>(C);
  }
  return J + "\"";
}

std::string jsonNumber(double V) {
  if (!std::isfinite(V))
    return "null";
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.6g", V);
  return Buf;
}

} // namespace

int weftColumn(const std::vector<Column> &Columns) {
  for (size_t I = 0; I < Columns.size(); ++I)
    if (Columns[I].IsWeft)
      return static_cast<int>(I);
  return -1;
}

bool Report::anyFailed() const {
  for (const Row &R : Rows) {
    if (!R.LimitBroken.empty())
      return true;
    for (const Cell &C : R.Cells)
      if (C.Failed)
        return true;
  }
  return false;
}

void Report::printTable(std::FILE *Out) const {
  const int Weft = weftColumn(Columns);
  const bool Limits =
      std::any_of(Rows.begin(), Rows.end(), [](const Row &R) { return !R.M.Limit.empty(); });
  std::vector<std::string> Header = {"benchmark", "unit", "better"};
  for (const Column &C : Columns)
    Header.push_back(C.Label);
  if (Limits)
    Header.push_back("limit");
  for (size_t I = 0; I < Columns.size(); ++I)
    if (Weft >= 0 && static_cast<int>(I) != Weft)
      Header.push_back("Weft/" + Columns[I].Label);
  if (Limits && Weft >= 0)
    Header.push_back("Weft/limit");

  std::vector<std::vector<std::string>> Lines = {Header};
  for (const Row &R : Rows) {
    std::vector<std::string> Line = {R.M.Name, R.M.Unit, R.M.HigherIsBetter ? "higher" : "lower"};
    for (const Cell &C : R.Cells)
      Line.push_back(cellText(C));
    if (Limits)
      Line.push_back(R.M.Limit.empty() ? "" : cellText(R.Limit));
    for (size_t I = 0; I < Columns.size(); ++I)
      if (Weft >= 0 && static_cast<int>(I) != Weft)
        Line.push_back(ratioText(ratio(R.Cells[Weft], R.Cells[I]), R.M.HigherIsBetter));
    if (Limits && Weft >= 0)
      Line.push_back(R.M.Limit.empty() ? "" : limitShareText(R.Cells[Weft], R.Limit));
    Lines.push_back(Line);
  }

  std::vector<size_t> Widths(Header.size(), 0);
  for (const auto &Line : Lines)
    for (size_t I = 0; I < Line.size(); ++I)
      Widths[I] = std::max(Widths[I], displayWidth(Line[I]));

  std::fprintf(Out, "weft_bench%s: median [min-max] of %u repetitions", Quick ? " --quick" : "",
               Reps);
  if (Weft >= 0 && Columns.size() > 1)
    std::fprintf(Out, "; Weft/X = ratio of medians, read with the 'better' column");
  if (Limits)
    std::fprintf(Out,
                 "; limit = native C++ for this CPU on all %u CPUs (the metric's "
                 "'limit' in --list), Weft/limit = Weft's share of it",
                 LimitThreads);
  std::fprintf(Out, "\n");
  for (const Column &C : Columns)
    std::fprintf(Out, "  %s: %s, %s\n", C.Label.c_str(), C.PlatformName.c_str(),
                 C.DeviceName.c_str());
  std::fprintf(Out, "\n");
  for (size_t L = 0; L < Lines.size(); ++L) {
    std::string Text;
    for (size_t I = 0; I < Lines[L].size(); ++I)
      Text +=
          (I ? "  " : "") + (I + 1 < Lines[L].size() ? pad(Lines[L][I], Widths[I]) : Lines[L][I]);
    std::fprintf(Out, "%s\n", Text.c_str());
    if (L == 0) {
      size_t Total = 0;
      for (size_t W : Widths)
        Total += W + 2;
      std::fprintf(Out, "%s\n", std::string(Total - 2, '-').c_str());
    }
  }

  bool Header2 = false;
  for (const Row &R : Rows)
    for (size_t I = 0; I < R.Cells.size(); ++I)
      if (R.Cells[I].Failed) {
        if (!Header2)
          std::fprintf(Out, "\nFailures:\n");
        Header2 = true;
        std::fprintf(Out, "  %s on %s: %s\n", R.M.Name.c_str(), Columns[I].Label.c_str(),
                     R.Cells[I].Why.c_str());
      }
  for (const Row &R : Rows)
    if (!R.LimitBroken.empty()) {
      if (!Header2)
        std::fprintf(Out, "\nFailures:\n");
      Header2 = true;
      std::fprintf(Out, "  %s: limit %s: %s\n", R.M.Name.c_str(), R.M.Limit.c_str(),
                   R.LimitBroken.c_str());
    }
}

bool Report::writeCsv(const std::string &Path) const {
  std::ofstream F(Path);
  if (!F) {
    std::fprintf(stderr, "weft_bench: cannot write %s\n", Path.c_str());
    return false;
  }
  const int Weft = weftColumn(Columns);
  F << "metric,unit,higher_is_better,column,platform,device,status,median,min,max,q1,q3,reps,"
       "weft_over_this,values\n";
  // One line per cell; the limits as a column of their own, "limit", with
  // Weft's share of them.
  auto line = [&](const Row &R, const std::string &Label, const std::string &Platform,
                  const std::string &Device, const Cell &C, double Ratio) {
    Summary S = summarize(C.Values);
    bool Ok = usable(C);
    auto Num = [&](double V) { return Ok ? jsonNumber(V) : std::string(); };
    std::string Values;
    for (double V : C.Values)
      Values += (Values.empty() ? "" : ";") + jsonNumber(V);
    F << csvField(R.M.Name) << ',' << csvField(R.M.Unit) << ',' << (R.M.HigherIsBetter ? "1" : "0")
      << ',' << csvField(Label) << ',' << csvField(Platform) << ',' << csvField(Device) << ','
      << (C.Failed ? "FAILED"
          : Ok     ? "ok"
                   : "skipped")
      << ',' << Num(S.Median) << ',' << Num(S.Min) << ',' << Num(S.Max) << ',' << Num(S.Q1) << ','
      << Num(S.Q3) << ',' << C.Values.size() << ','
      << (std::isfinite(Ratio) ? jsonNumber(Ratio) : "") << ',' << Values << '\n';
  };
  for (const Row &R : Rows)
    for (size_t I = 0; I < Columns.size(); ++I)
      line(R, Columns[I].Label, Columns[I].PlatformName, Columns[I].DeviceName, R.Cells[I],
           Weft >= 0 && static_cast<int>(I) != Weft ? ratio(R.Cells[Weft], R.Cells[I]) : NAN);
  for (const Row &R : Rows)
    if (!R.M.Limit.empty())
      line(R, "limit", "native", R.M.Limit, R.Limit,
           Weft >= 0 ? ratio(R.Cells[Weft], R.Limit) : NAN);
  return static_cast<bool>(F);
}

bool Report::writeJson(const std::string &Path) const {
  std::ofstream F(Path);
  if (!F) {
    std::fprintf(stderr, "weft_bench: cannot write %s\n", Path.c_str());
    return false;
  }
  const int Weft = weftColumn(Columns);
  F << "{\n  \"reps\": " << Reps << ",\n  \"quick\": " << (Quick ? "true" : "false")
    << ",\n  \"limit_threads\": " << LimitThreads << ",\n  \"columns\": [";
  for (size_t I = 0; I < Columns.size(); ++I)
    F << (I ? ", " : "") << "{\"label\": " << jsonString(Columns[I].Label)
      << ", \"platform\": " << jsonString(Columns[I].PlatformName)
      << ", \"device\": " << jsonString(Columns[I].DeviceName)
      << ", \"is_weft\": " << (Columns[I].IsWeft ? "true" : "false") << "}";
  F << "],\n  \"results\": [";
  for (size_t RI = 0; RI < Rows.size(); ++RI) {
    const Row &R = Rows[RI];
    F << (RI ? "," : "") << "\n    {\"metric\": " << jsonString(R.M.Name)
      << ", \"unit\": " << jsonString(R.M.Unit)
      << ", \"higher_is_better\": " << (R.M.HigherIsBetter ? "true" : "false") << ", \"cells\": {";
    for (size_t I = 0; I < Columns.size(); ++I) {
      const Cell &C = R.Cells[I];
      Summary S = summarize(C.Values);
      F << (I ? "," : "") << "\n      " << jsonString(Columns[I].Label) << ": {\"status\": "
        << jsonString(C.Failed    ? "FAILED"
                      : usable(C) ? "ok"
                                  : "skipped");
      if (C.Failed)
        F << ", \"why\": " << jsonString(C.Why);
      if (usable(C))
        F << ", \"median\": " << jsonNumber(S.Median) << ", \"min\": " << jsonNumber(S.Min)
          << ", \"max\": " << jsonNumber(S.Max) << ", \"q1\": " << jsonNumber(S.Q1)
          << ", \"q3\": " << jsonNumber(S.Q3);
      if (Weft >= 0 && static_cast<int>(I) != Weft)
        F << ", \"weft_over_this\": " << jsonNumber(ratio(R.Cells[Weft], C));
      F << ", \"values\": [";
      for (size_t V = 0; V < C.Values.size(); ++V)
        F << (V ? ", " : "") << jsonNumber(C.Values[V]);
      F << "]}";
    }
    F << "}";
    if (!R.M.Limit.empty()) {
      Summary S = summarize(R.Limit.Values);
      F << ", \"limit\": {\"name\": " << jsonString(R.M.Limit);
      if (usable(R.Limit))
        F << ", \"median\": " << jsonNumber(S.Median) << ", \"min\": " << jsonNumber(S.Min)
          << ", \"max\": " << jsonNumber(S.Max);
      if (Weft >= 0)
        F << ", \"weft_over_limit\": " << jsonNumber(ratio(R.Cells[Weft], R.Limit));
      F << ", \"values\": [";
      for (size_t V = 0; V < R.Limit.Values.size(); ++V)
        F << (V ? ", " : "") << jsonNumber(R.Limit.Values[V]);
      F << "]}";
    }
    F << "}";
  }
  F << "\n  ]\n}\n";
  return static_cast<bool>(F);
}

} // namespace weft::bench
