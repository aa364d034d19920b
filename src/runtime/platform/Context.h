// A context: a set of devices, the properties it was made with, and the
// application's error-notification callback.
#pragma once

#include "runtime/Object.h"
#include "runtime/memory/SvmRegistry.h"

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace weft::rt {

class CommandQueue;
class Device;

class Context : public Object<_cl_context, HandleKind::Context> {
public:
  using NotifyFn = void(CL_CALLBACK *)(const char *, const void *, size_t, void *);
  using DestructorFn = void(CL_CALLBACK *)(cl_context, void *);

  Context(std::vector<Device *> Devices, std::vector<cl_context_properties> Properties,
          NotifyFn Notify, void *NotifyData);
  ~Context() override;

  const std::vector<Device *> &devices() const { return Devices; }
  bool hasDevice(const Device *D) const;
  /// The property list as given, with its terminating 0 (empty if none given).
  const std::vector<cl_context_properties> &properties() const { return Properties; }

  /// The context's SVM allocations.
  SvmRegistry &svm() { return Svm; }

  /// Reports an error to the application's pfn_notify, if any.
  void notify(const std::string &Why) const;

  /// The default device queue (CL_QUEUE_ON_DEVICE_DEFAULT) of device D in
  /// this context, or null; a queue stops being the default when the
  /// application releases it.
  Ref<CommandQueue> defaultDeviceQueue(const Device &D);
  void setDefaultDeviceQueue(CommandQueue &Q);
  void forgetDeviceQueue(CommandQueue &Q);
  void addDestructorCallback(DestructorFn Fn, void *Data);

private:
  std::vector<Device *> Devices;
  std::vector<cl_context_properties> Properties;
  NotifyFn Notify;
  void *NotifyData;
  std::mutex Mutex;
  std::vector<std::pair<DestructorFn, void *>> DestructorCallbacks;
  SvmRegistry Svm;
  std::vector<CommandQueue *> DefaultDeviceQueues; // guarded by Mutex
};

} // namespace weft::rt
