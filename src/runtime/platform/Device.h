// A device as the runtime sees it: a DeviceBackend plus identity.
//
// Devices are owned by the platform and never destroyed, so retain/release
// of a root device are no-ops, as the specification allows.
#pragma once

#include "runtime/Object.h"
#include "runtime/platform/DeviceBackend.h"

#include <memory>

namespace weft::rt {

class Platform;

class Device : public Object<_cl_device_id, HandleKind::Device> {
public:
  Device(Platform &P, std::unique_ptr<DeviceBackend> Backend);

  Platform &platform() const { return Owner; }
  DeviceBackend &backend() const { return *Backend; }
  const DeviceProperties &props() const { return Backend->properties(); }

private:
  Platform &Owner;
  std::unique_ptr<DeviceBackend> Backend;
};

} // namespace weft::rt
