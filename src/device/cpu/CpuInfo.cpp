// Host CPU probing from /proc, /sys and sysconf; the vector widths from the
// instruction set the compiler emits (rt::ProgramCompiler::target()).
#include "device/cpu/CpuInfo.h"

#include "runtime/platform/Capabilities.h"
#include "runtime/program/ProgramCompiler.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace weft::cpu {

namespace {

std::string readLine(const std::string &Path) {
  std::ifstream In(Path);
  std::string Line;
  std::getline(In, Line);
  return Line;
}

/// "32K", "1024K", "36M" (sysfs cache sizes) in bytes.
uint64_t parseSize(const std::string &S) {
  if (S.empty())
    return 0;
  uint64_t N = std::strtoull(S.c_str(), nullptr, 10);
  switch (S.back()) {
  case 'K':
    return N << 10;
  case 'M':
    return N << 20;
  case 'G':
    return N << 30;
  default:
    return N;
  }
}

std::string cpuinfoField(const std::string &Key) {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.compare(0, Key.size(), Key) != 0)
      continue;
    auto Colon = Line.find(':');
    if (Colon == std::string::npos)
      continue;
    std::string V = Line.substr(Colon + 1);
    V.erase(0, V.find_first_not_of(" \t"));
    return V;
  }
  return {};
}

void probeCaches(rt::DeviceProperties &P) {
  for (int I = 0; I < 8; ++I) {
    std::string Dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(I) + "/";
    std::string Type = readLine(Dir + "type");
    if (Type.empty())
      break;
    rt::CacheLevel C;
    C.Level = unsigned(std::atoi(readLine(Dir + "level").c_str()));
    C.Size = parseSize(readLine(Dir + "size"));
    C.LineSize = unsigned(std::atoi(readLine(Dir + "coherency_line_size").c_str()));
    if (Type == "Instruction")
      continue;
    if (C.Level == 1)
      P.L1Data = C;
    if (C.Level >= P.LastLevelCache.Level)
      P.LastLevelCache = C;
  }
  if (P.LastLevelCache.LineSize == 0)
    P.LastLevelCache.LineSize = 64;
}

void probeIsa(rt::DeviceProperties &P) {
  // The registers of the code the compiler emits: the host's, or those of
  // the CPU WEFT_CPU names.
  rt::CodeTarget Target = rt::ProgramCompiler::get().target();
  const unsigned Bytes = Target.SimdBytes;
  P.SimdBytes = Bytes;
  // char, short, int, long, float, double, half: lanes of one register.
  P.VectorWidths = {Bytes, Bytes / 2, Bytes / 4, Bytes / 8, Bytes / 4, Bytes / 8, 0};
  P.IsaName = std::move(Target.IsaName);
  P.Int8DotProductInstructions = Target.Int8DotProductInstructions;
}

} // namespace

rt::DeviceProperties probeHostCpu() {
  rt::DeviceProperties P;
  P.Name = cpuinfoField("model name");
  if (P.Name.empty())
    P.Name = "Host CPU";
  P.Vendor = cpuinfoField("vendor_id");
  if (P.Vendor == "GenuineIntel") {
    P.Vendor = "Intel(R) Corporation";
    P.VendorId = 0x8086;
  } else if (P.Vendor == "AuthenticAMD") {
    P.Vendor = "Advanced Micro Devices, Inc.";
    P.VendorId = 0x1022;
  } else if (P.Vendor.empty()) {
    P.Vendor = "Unknown";
  }

  cpu_set_t Set;
  CPU_ZERO(&Set);
  if (sched_getaffinity(0, sizeof(Set), &Set) == 0)
    P.ComputeUnits = cl_uint(std::max(1, CPU_COUNT(&Set)));
  else
    P.ComputeUnits = cl_uint(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));

  std::string MaxKHz = readLine("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  if (!MaxKHz.empty())
    P.MaxClockMHz = cl_uint(std::strtoull(MaxKHz.c_str(), nullptr, 10) / 1000);
  else
    P.MaxClockMHz = cl_uint(std::atof(cpuinfoField("cpu MHz").c_str()));

  P.GlobalMemSize = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
  // The specification's minimum is max(1/4 of global memory, 128 MiB).
  P.MaxMemAllocSize = std::max<uint64_t>(P.GlobalMemSize / 4, 128u << 20);
  P.LocalMemSize = 64u << 10; // per worker arena; fits L2 of every x86 core we target
  P.MaxWorkGroupSize = rt::MaxWorkGroupSize;
  probeCaches(P);
  probeIsa(P);
  return P;
}

} // namespace weft::cpu
