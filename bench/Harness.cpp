// The harness's plumbing: device discovery through the ICD loader, the thin
// OpenCL helpers every figure uses (each throws a Failure instead of
// returning an error), output checks and the statistics of repetitions.
#include "Harness.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace weft::bench {

void check(cl_int Err, const char *What) {
  if (Err != CL_SUCCESS)
    throw Failure(std::string(What) + " returned " + std::to_string(Err));
}

Device::~Device() {
  if (Queue)
    clReleaseCommandQueue(Queue);
  if (Context)
    clReleaseContext(Context);
}

Mem Device::buffer(size_t Bytes, cl_mem_flags Flags) const {
  cl_int Err;
  cl_mem M = clCreateBuffer(Context, Flags, Bytes, nullptr, &Err);
  check(Err, "clCreateBuffer");
  return Mem(M);
}

Program Device::build(const std::string &Source, const std::string &Options) const {
  const char *Text = Source.c_str();
  size_t Length = Source.size();
  cl_int Err;
  Program P(clCreateProgramWithSource(Context, 1, &Text, &Length, &Err));
  check(Err, "clCreateProgramWithSource");
  Err = clBuildProgram(P.get(), 1, &Id, Options.c_str(), nullptr, nullptr);
  if (Err != CL_SUCCESS) {
    size_t LogSize = 0;
    clGetProgramBuildInfo(P.get(), Id, CL_PROGRAM_BUILD_LOG, 0, nullptr, &LogSize);
    std::string Log(LogSize, '\0');
    clGetProgramBuildInfo(P.get(), Id, CL_PROGRAM_BUILD_LOG, LogSize, Log.data(), nullptr);
    throw Failure("clBuildProgram returned " + std::to_string(Err) + ":\n" + Log);
  }
  return P;
}

Kernel Device::kernel(const Program &P, const char *Name) const {
  cl_int Err;
  Kernel K(clCreateKernel(P.get(), Name, &Err));
  check(Err, (std::string("clCreateKernel ") + Name).c_str());
  return K;
}

void Device::write(const Mem &M, const void *Data, size_t Bytes) const {
  check(clEnqueueWriteBuffer(Queue, M.get(), CL_TRUE, 0, Bytes, Data, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void Device::read(const Mem &M, void *Data, size_t Bytes) const {
  check(clEnqueueReadBuffer(Queue, M.get(), CL_TRUE, 0, Bytes, Data, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
}

Mem Device::image2d(cl_channel_order Order, cl_channel_type Type, size_t Width, size_t Height,
                    cl_mem_flags Flags) const {
  const cl_image_format Format = {Order, Type};
  cl_image_desc Desc = {};
  Desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  Desc.image_width = Width;
  Desc.image_height = Height;
  cl_int Err;
  cl_mem M = clCreateImage(Context, Flags, &Format, &Desc, nullptr, &Err);
  check(Err, "clCreateImage");
  return Mem(M);
}

void Device::writeImage(const Mem &M, const void *Data, size_t Width, size_t Height) const {
  const size_t Origin[3] = {0, 0, 0}, Region[3] = {Width, Height, 1};
  check(
      clEnqueueWriteImage(Queue, M.get(), CL_TRUE, Origin, Region, 0, 0, Data, 0, nullptr, nullptr),
      "clEnqueueWriteImage");
}

void Device::readImage(const Mem &M, void *Data, size_t Width, size_t Height) const {
  const size_t Origin[3] = {0, 0, 0}, Region[3] = {Width, Height, 1};
  check(
      clEnqueueReadImage(Queue, M.get(), CL_TRUE, Origin, Region, 0, 0, Data, 0, nullptr, nullptr),
      "clEnqueueReadImage");
}

void Device::finish() const { check(clFinish(Queue), "clFinish"); }

void Device::launch(const Kernel &K, std::vector<size_t> Global, std::vector<size_t> Local) const {
  check(clEnqueueNDRangeKernel(Queue, K.get(), static_cast<cl_uint>(Global.size()), nullptr,
                               Global.data(), Local.data(), 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
}

void setLocalArg(const Kernel &K, cl_uint Index, size_t Bytes) {
  check(clSetKernelArg(K.get(), Index, Bytes, nullptr), "clSetKernelArg(__local)");
}

namespace {

std::string lower(std::string S) {
  std::transform(S.begin(), S.end(), S.begin(),
                 [](unsigned char C) { return static_cast<char>(std::tolower(C)); });
  return S;
}

std::string platformString(cl_platform_id P, cl_platform_info What) {
  size_t Size = 0;
  clGetPlatformInfo(P, What, 0, nullptr, &Size);
  std::string S(Size, '\0');
  clGetPlatformInfo(P, What, Size, S.data(), nullptr);
  return S.c_str();
}

std::string deviceString(cl_device_id D, cl_device_info What) {
  size_t Size = 0;
  clGetDeviceInfo(D, What, 0, nullptr, &Size);
  std::string S(Size, '\0');
  clGetDeviceInfo(D, What, Size, S.data(), nullptr);
  return S.c_str();
}

/// A column name short enough for the table.
std::string shortName(const std::string &PlatformName) {
  if (PlatformName == "Portable Computing Language")
    return "PoCL";
  std::string First = PlatformName.substr(0, PlatformName.find(' '));
  return First.empty() ? "platform" : First.substr(0, 12);
}

} // namespace

std::vector<std::unique_ptr<Device>> discoverDevices(const std::vector<std::string> &Filters) {
  cl_uint NumPlatforms = 0;
  if (clGetPlatformIDs(0, nullptr, &NumPlatforms) != CL_SUCCESS || NumPlatforms == 0)
    return {};
  std::vector<cl_platform_id> Platforms(NumPlatforms);
  check(clGetPlatformIDs(NumPlatforms, Platforms.data(), nullptr), "clGetPlatformIDs");

  std::vector<std::unique_ptr<Device>> Devices;
  std::map<std::string, unsigned> LabelUses;
  for (cl_platform_id P : Platforms) {
    std::string Name = platformString(P, CL_PLATFORM_NAME);
    std::string Short = shortName(Name);
    bool Wanted = Filters.empty();
    for (const std::string &F : Filters)
      Wanted |= lower(Name).find(lower(F)) != std::string::npos || lower(Short) == lower(F);
    if (!Wanted)
      continue;
    cl_uint NumDevices = 0;
    if (clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 0, nullptr, &NumDevices) != CL_SUCCESS)
      continue;
    std::vector<cl_device_id> Ids(NumDevices);
    check(clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, NumDevices, Ids.data(), nullptr), "clGetDeviceIDs");
    for (cl_device_id Id : Ids) {
      auto D = std::make_unique<Device>();
      D->PlatformId = P;
      D->Id = Id;
      D->PlatformName = Name;
      D->DeviceName = deviceString(Id, CL_DEVICE_NAME);
      D->IsWeft = Name == "Weft";
      unsigned Use = LabelUses[Short]++;
      D->Label = Use ? Short + "#" + std::to_string(Use) : Short;
      cl_context_properties Props[] = {CL_CONTEXT_PLATFORM,
                                       reinterpret_cast<cl_context_properties>(P), 0};
      cl_int Err;
      D->Context = clCreateContext(Props, 1, &Id, nullptr, nullptr, &Err);
      check(Err, "clCreateContext");
      D->Queue = clCreateCommandQueueWithProperties(D->Context, Id, nullptr, &Err);
      check(Err, "clCreateCommandQueueWithProperties");
      Devices.push_back(std::move(D));
    }
  }
  return Devices;
}

void expectEqual(const uint32_t *Got, const uint32_t *Want, size_t Count, const char *What) {
  for (size_t I = 0; I < Count; ++I)
    if (Got[I] != Want[I]) {
      size_t Wrong = 0;
      for (size_t J = I; J < Count; ++J)
        Wrong += Got[J] != Want[J];
      throw Failure(std::string(What) + ": element " + std::to_string(I) + " is " +
                    std::to_string(Got[I]) + ", expected " + std::to_string(Want[I]) + " (" +
                    std::to_string(Wrong) + " of " + std::to_string(Count) + " wrong)");
    }
}

void expectNear(const float *Got, const float *Want, size_t Count, float RelTol, const char *What) {
  auto Bad = [&](size_t I) {
    float Scale = std::max(1.0f, std::fabs(Want[I]));
    return !(std::fabs(Got[I] - Want[I]) <= RelTol * Scale); // NaN is bad too
  };
  for (size_t I = 0; I < Count; ++I)
    if (Bad(I)) {
      size_t Wrong = 0;
      for (size_t J = I; J < Count; ++J)
        Wrong += Bad(J);
      char Buf[160];
      std::snprintf(Buf, sizeof(Buf), ": element %zu is %.7g, expected %.7g (%zu of %zu wrong)", I,
                    Got[I], Want[I], Wrong, Count);
      throw Failure(What + std::string(Buf));
    }
}

namespace {

template <typename T>
void expectRelativeImpl(const T *Got, const double *Want, size_t Count, double RelTol,
                        double AbsTol, const char *What) {
  auto Bad = [&](size_t I) {
    double Error = std::fabs(static_cast<double>(Got[I]) - Want[I]);
    return !(Error <= RelTol * std::fabs(Want[I]) + AbsTol); // NaN is bad too
  };
  for (size_t I = 0; I < Count; ++I)
    if (Bad(I)) {
      size_t Wrong = 0;
      for (size_t J = I; J < Count; ++J)
        Wrong += Bad(J);
      // Enough digits to tell the two apart at the type's precision.
      const int Digits = std::numeric_limits<T>::max_digits10;
      char Buf[160];
      std::snprintf(Buf, sizeof(Buf), ": element %zu is %.*g, expected %.*g (%zu of %zu wrong)", I,
                    Digits, static_cast<double>(Got[I]), Digits, Want[I], Wrong, Count);
      throw Failure(What + std::string(Buf));
    }
}

} // namespace

void expectRelative(const float *Got, const double *Want, size_t Count, double RelTol,
                    double AbsTol, const char *What) {
  expectRelativeImpl(Got, Want, Count, RelTol, AbsTol, What);
}

void expectRelative(const double *Got, const double *Want, size_t Count, double RelTol,
                    double AbsTol, const char *What) {
  expectRelativeImpl(Got, Want, Count, RelTol, AbsTol, What);
}

unsigned calibrate(double SecondsPerLaunch, double Target, unsigned Max) {
  if (!(SecondsPerLaunch > 0))
    return Max;
  double N = std::floor(Target / SecondsPerLaunch);
  return static_cast<unsigned>(std::clamp(N, 1.0, static_cast<double>(Max)));
}

double KernelRun::timePart(TimedPart &P, unsigned Rep, unsigned Launches) {
  if (P.Reset)
    P.Reset(Rep);
  double Seconds = timeBatch(D, Launches, P.Launch);
  P.Verify(Rep, Launches);
  return Seconds;
}

void KernelRun::prepare(const Config &C) {
  PartFailed.assign(Parts.size(), std::string());
  for (size_t I = 0; I < Parts.size(); ++I) {
    TimedPart &P = Parts[I];
    if (P.Unsupported)
      continue;
    try {
      if (P.FixedLaunches) {
        P.Launches = P.FixedLaunches;
        timePart(P, 0, P.Launches);
        continue;
      }
      timePart(P, 0, 1); // the first launch may compile or fault pages in
      double Seconds = timePart(P, 0, 1);
      P.Launches = calibrate(Seconds, C.TargetSeconds, P.MaxLaunches);
    } catch (const Failure &F) {
      PartFailed[I] = std::string("(prepare) ") + F.what();
    }
  }
}

std::vector<Sample> KernelRun::runOnce(unsigned Rep) {
  std::vector<Sample> Samples(Parts.size());
  for (size_t I = 0; I < Parts.size(); ++I) {
    TimedPart &P = Parts[I];
    if (P.Unsupported) {
      Samples[I].Skipped = true;
      continue;
    }
    if (!PartFailed[I].empty()) {
      Samples[I].Failed = PartFailed[I];
      continue;
    }
    try {
      double Seconds = timePart(P, Rep, P.Launches);
      if (P.TimePerLaunch)
        Samples[I].Value = Seconds / P.Launches * P.Scale;
      else
        Samples[I].Value = P.WorkPerLaunch * P.Launches / Seconds * P.Scale;
    } catch (const Failure &F) {
      PartFailed[I] = "(repetition " + std::to_string(Rep) + ") " + F.what();
      Samples[I].Failed = PartFailed[I];
    }
  }
  return Samples;
}

Summary summarize(std::vector<double> Values) {
  Summary S;
  S.Count = Values.size();
  if (Values.empty())
    return S;
  std::sort(Values.begin(), Values.end());
  // Linear interpolation between order statistics (the "R-7" quantile).
  auto Quantile = [&](double Q) {
    double Pos = Q * static_cast<double>(Values.size() - 1);
    size_t Lo = static_cast<size_t>(std::floor(Pos));
    size_t Hi = std::min(Lo + 1, Values.size() - 1);
    return Values[Lo] + (Pos - static_cast<double>(Lo)) * (Values[Hi] - Values[Lo]);
  };
  S.Median = Quantile(0.5);
  S.Q1 = Quantile(0.25);
  S.Q3 = Quantile(0.75);
  S.Min = Values.front();
  S.Max = Values.back();
  return S;
}

} // namespace weft::bench
