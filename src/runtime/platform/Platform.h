// The one Weft platform and its devices.
//
// The platform is created on first use and lives for the whole process (the
// ICD loader may call into us at any time until exit). It owns the root CPU
// device. Version and extension strings are derived from what the runtime
// and compiler implement today (see Capabilities.h).
#pragma once

#include "runtime/Object.h"

#include <memory>
#include <vector>

namespace weft::rt {

class Device;

class Platform : public Object<_cl_platform_id, HandleKind::Platform> {
public:
  static Platform &get();

  const std::vector<Device *> &devices() const { return Devices; }
  /// CL_PLATFORM_HOST_TIMER_RESOLUTION and the clock of every profiling
  /// timestamp: nanoseconds of CLOCK_MONOTONIC.
  static uint64_t nowNs();

private:
  Platform();
  std::vector<Device *> Devices;
};

} // namespace weft::rt
