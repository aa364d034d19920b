// The platform singleton: creates the host CPU device on first use.
#include "runtime/platform/Platform.h"
#include "runtime/platform/Device.h"

#include <ctime>

namespace weft::rt {

Platform::Platform() {
  // The root device lives as long as the process; never deleted.
  Devices.push_back(new Device(*this, createHostCpuBackend()));
}

Platform &Platform::get() {
  static Platform *P = new Platform(); // never destroyed: the loader may call us at exit
  return *P;
}

uint64_t Platform::nowNs() {
  timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return uint64_t(Ts.tv_sec) * 1000000000ull + uint64_t(Ts.tv_nsec);
}

Device::Device(Platform &P, std::unique_ptr<DeviceBackend> B) : Owner(P), Backend(std::move(B)) {}

} // namespace weft::rt
