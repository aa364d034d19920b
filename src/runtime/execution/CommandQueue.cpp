// Queue ordering and the path of a command from Queued to Ready.
#include "runtime/execution/CommandQueue.h"
#include "runtime/platform/Device.h"

#include <algorithm>
#include <atomic>

namespace weft::rt {

CommandQueue::CommandQueue(Context &C, Device &D, cl_command_queue_properties P,
                           std::vector<cl_queue_properties> List, cl_uint S)
    : Ctx(&C), Dev(D), Props(P), PropertyList(std::move(List)), Size(S) {}

bool CommandQueue::claimDeviceSpace(size_t Bytes) {
  size_t Used = DeviceSpaceUsed.load(std::memory_order_relaxed);
  do {
    if (Used + Bytes > Size)
      return false;
  } while (!DeviceSpaceUsed.compare_exchange_weak(Used, Used + Bytes, std::memory_order_relaxed));
  return true;
}

void CommandQueue::releaseDeviceSpace(size_t Bytes) {
  DeviceSpaceUsed.fetch_sub(Bytes, std::memory_order_relaxed);
}

Ref<Event> CommandQueue::enqueue(std::shared_ptr<Command> Cmd,
                                 const std::vector<Ref<Event>> &WaitList) {
  Dev.backend().hostEnqueued();
  Ref<Event> Ev = Cmd->eventRef();
  // Prerequisites besides the wait list: the previous command (in-order),
  // or the last barrier and, for a marker or barrier, what came before it.
  std::vector<Ref<Event>> Deps;
  Ref<Event> Previous;
  // A dependency for order only: its failure does not fail this command.
  Ref<Event> OrderOnly;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (inOrder()) {
      // The previous command orders everything; it is all finish() needs.
      Previous = std::move(Last);
      Last = Ev;
    } else {
      // Forget finished commands, amortized: a scan only when the list has
      // doubled since the last one, so enqueue stays O(1) with thousands of
      // commands in flight.
      auto terminal = [](const Ref<Event> &E) { return E->isTerminal(); };
      if (Pending.size() >= PruneAt) {
        Pending.erase(std::remove_if(Pending.begin(), Pending.end(), terminal), Pending.end());
        SinceFullSync.erase(
            std::remove_if(SinceFullSync.begin(), SinceFullSync.end(), terminal),
            SinceFullSync.end());
        PruneAt = std::max<size_t>(64, 2 * Pending.size());
      }
      Previous = LastBarrier;
      // A marker or barrier with no wait list waits for all before it: the
      // last such one and what came since. A barrier also orders
      // everything after it.
      const bool FullSync = Cmd->isSynchronization() && WaitList.empty();
      if (FullSync) {
        // The last one for order only: a command that failed before it
        // failed it, and fails this one only if it came after it (as when
        // every pending command was a dependency).
        OrderOnly = LastFullSync;
        Deps.swap(SinceFullSync);
        LastFullSync = Ev;
      } else {
        SinceFullSync.push_back(Ev);
      }
      if (Cmd->isSynchronization() && Cmd->event().commandType() == CL_COMMAND_BARRIER)
        LastBarrier = Ev;
      Pending.push_back(Ev);
    }
  }

  Ev->advance(Event::Stage::Submitted);
  // The command cannot start before every callback below is registered:
  // this function holds one more count and gives it up last.
  Command *C = Cmd.get();
  Cmd->awaitPrerequisites(WaitList.size() + Deps.size() + (Previous ? 1 : 0) + (OrderOnly ? 1 : 0));
  auto Arrive = [C](cl_int St) { C->prerequisiteDone(St); };
  for (const Ref<Event> &D : WaitList)
    D->whenDone(Arrive);
  for (const Ref<Event> &D : Deps)
    D->whenDone(Arrive);
  if (Previous)
    Previous->whenDone(Arrive);
  if (OrderOnly)
    OrderOnly->whenDone([C](cl_int) { C->prerequisiteDone(CL_COMPLETE); });
  runFlattened(Arrive, CL_COMPLETE);
  return Ev;
}

void CommandQueue::finish() {
  std::vector<Ref<Event>> Snapshot;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Snapshot = inOrder() ? std::vector<Ref<Event>>{Last} : Pending;
  }
  for (auto &E : Snapshot)
    if (E)
      E->wait();
}

void CommandQueue::lastAppReleased() {
  // A released device queue is no longer the default; children in flight
  // on it keep it alive.
  if (onDevice())
    Ctx->forgetDeviceQueue(*this);
  // Break the queue <-> event cycle; commands in flight hold what they need.
  std::lock_guard<std::mutex> Lock(Mutex);
  Last = Ref<Event>();
  LastBarrier = Ref<Event>();
  LastFullSync = Ref<Event>();
  SinceFullSync.clear();
  Pending.clear();
}

} // namespace weft::rt
