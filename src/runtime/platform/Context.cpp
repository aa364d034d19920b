// Context: device membership, error notification, destructor callbacks.
#include "runtime/platform/Context.h"
#include "runtime/execution/CommandQueue.h"

#include <algorithm>

namespace weft::rt {

Context::Context(std::vector<Device *> Ds, std::vector<cl_context_properties> Props,
                 NotifyFn N, void *Data)
    : Devices(std::move(Ds)), Properties(std::move(Props)), Notify(N), NotifyData(Data) {}

Context::~Context() {
  // The specification: callbacks run in reverse order of registration.
  for (auto It = DestructorCallbacks.rbegin(); It != DestructorCallbacks.rend(); ++It)
    It->first(handle(), It->second);
}

bool Context::hasDevice(const Device *D) const {
  return std::find(Devices.begin(), Devices.end(), D) != Devices.end();
}

void Context::notify(const std::string &Why) const {
  if (Notify)
    Notify(Why.c_str(), nullptr, 0, NotifyData);
}

void Context::addDestructorCallback(DestructorFn Fn, void *Data) {
  std::lock_guard<std::mutex> Lock(Mutex);
  DestructorCallbacks.emplace_back(Fn, Data);
}

Ref<CommandQueue> Context::defaultDeviceQueue(const Device &D) {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (CommandQueue *Q : DefaultDeviceQueues)
    if (&Q->device() == &D)
      return Ref<CommandQueue>(Q);
  return {};
}

void Context::setDefaultDeviceQueue(CommandQueue &Q) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = std::find_if(DefaultDeviceQueues.begin(), DefaultDeviceQueues.end(),
                         [&](CommandQueue *Old) { return &Old->device() == &Q.device(); });
  if (It != DefaultDeviceQueues.end())
    *It = &Q;
  else
    DefaultDeviceQueues.push_back(&Q);
}

void Context::forgetDeviceQueue(CommandQueue &Q) {
  std::lock_guard<std::mutex> Lock(Mutex);
  DefaultDeviceQueues.erase(std::remove(DefaultDeviceQueues.begin(), DefaultDeviceQueues.end(), &Q),
                            DefaultDeviceQueues.end());
}

} // namespace weft::rt
