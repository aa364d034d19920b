// Figure 17: device-side enqueue, in child kernels launched per second.
// `enqueue.children`: a parent of 4,096 work-items, each enqueueing one
// child of one work-item that starts at once (CLK_ENQUEUE_FLAGS_NO_WAIT).
// `enqueue.tree`: a recursive kernel five levels deep, each work-item of
// the first four levels enqueueing a child of 8 work-items that starts
// when its own kernel has ended (585 child kernels). Every child must run
// exactly once and every enqueue succeed. The figure is the cost of a
// child kernel, from the enqueue to its completion; the host-side
// counterpart is `throughput.tiny_kernels`. A device without device-side
// enqueue (PoCL 3.1 reports none) shows "-".
#include "Figures.h"
#include "Kernels.h"

namespace weft::bench {

namespace {

struct EnqueueState {
  Program P;
  Kernel K;
  Mem Count, Failed;
  cl_command_queue DeviceQueue = nullptr;
  ~EnqueueState() {
    if (DeviceQueue)
      clReleaseCommandQueue(DeviceQueue);
  }
};

/// Whether D runs device-side enqueue.
bool hasDeviceEnqueue(const Device &D) {
  cl_device_device_enqueue_capabilities Caps = 0;
  return clGetDeviceInfo(D.Id, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof(Caps), &Caps,
                         nullptr) == CL_SUCCESS &&
         (Caps & CL_DEVICE_QUEUE_SUPPORTED);
}

constexpr size_t FlatChildren = 4096;
/// The root's level: the work-items of levels 4 to 1 each enqueue a child
/// of 8 work-items, 1 + 8 + 64 + 512 child kernels of 4,680 work-items.
constexpr int TreeLevels = 4;
constexpr uint32_t TreeChildren = 1 + 8 + 64 + 512;
constexpr uint32_t TreeItems = 1 + 8 * TreeChildren;

TimedPart enqueuePart(Device &D, bool Tree) {
  TimedPart Part;
  Part.Unsupported = !hasDeviceEnqueue(D);
  if (Part.Unsupported)
    return Part;
  auto S = std::make_shared<EnqueueState>();
  cl_uint MaxSize = 0;
  check(
      clGetDeviceInfo(D.Id, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof(MaxSize), &MaxSize, nullptr),
      "clGetDeviceInfo");
  cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES,
                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                                     CL_QUEUE_ON_DEVICE_DEFAULT,
                                 CL_QUEUE_SIZE, MaxSize, 0};
  cl_int Err;
  S->DeviceQueue = clCreateCommandQueueWithProperties(D.Context, D.Id, Props, &Err);
  check(Err, "clCreateCommandQueueWithProperties (device queue)");
  S->P = D.build(kernels::Enqueue, "-cl-std=CL2.0");
  S->K = D.kernel(S->P, Tree ? "enqueueTree" : "enqueueParent");
  S->Count = D.buffer(sizeof(uint32_t));
  S->Failed = D.buffer(sizeof(uint32_t));
  if (Tree)
    setArgs(S->K, S->Count, S->Failed, cl_int(TreeLevels));
  else
    setArgs(S->K, S->Count, S->Failed);
  const Device *Dev = &D;
  Part.Reset = [S, Dev](unsigned) {
    uint32_t Zero = 0;
    Dev->write(S->Count, &Zero, sizeof(Zero));
    Dev->write(S->Failed, &Zero, sizeof(Zero));
  };
  Part.Launch = [S, Dev, Tree] {
    if (Tree)
      Dev->launch(S->K, {1}, {1});
    else
      Dev->launch(S->K, {FlatChildren}, {64});
  };
  Part.Verify = [S, Dev, Tree](unsigned, unsigned Launches) {
    uint32_t Count = 0, Failed = 0;
    Dev->read(S->Failed, &Failed, sizeof(Failed));
    if (Failed)
      throw Failure(std::to_string(Failed) + " enqueue_kernel calls failed");
    Dev->read(S->Count, &Count, sizeof(Count));
    const uint64_t Want = uint64_t(Launches) * (Tree ? TreeItems : FlatChildren);
    if (Count != Want)
      throw Failure("the children counted " + std::to_string(Count) + ", not " +
                    std::to_string(Want));
  };
  Part.WorkPerLaunch = Tree ? double(TreeChildren) : double(FlatChildren);
  Part.Scale = 1e-3;
  Part.MaxLaunches = 400;
  return Part;
}

class EnqueueFigure : public Figure {
public:
  const char *name() const override { return "enqueue"; }
  std::vector<Metric> metrics() const override {
    return {{"enqueue.children", "k children/s", true}, {"enqueue.tree", "k children/s", true}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    auto Run = std::make_unique<KernelRun>(D);
    Run->Parts.push_back(partOrFailure([&] { return enqueuePart(D, false); }));
    Run->Parts.push_back(partOrFailure([&] { return enqueuePart(D, true); }));
    Run->prepare(C);
    return Run;
  }
};

} // namespace

std::unique_ptr<Figure> makeEnqueue() { return std::make_unique<EnqueueFigure>(); }

} // namespace weft::bench
