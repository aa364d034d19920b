// The event state machine and command scheduling, below the API layer.
#include "runtime/execution/CommandQueue.h"
#include "runtime/execution/Event.h"
#include "runtime/platform/Device.h"
#include "runtime/platform/Platform.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace weft::rt;

namespace {

struct EventTest : ::testing::Test {
  Device &Dev = *Platform::get().devices()[0];
  Ref<Context> Ctx = Ref<Context>::adopt(new Context({&Dev}, {}, nullptr, nullptr));
  Ref<CommandQueue> Queue = Ref<CommandQueue>::adopt(
      new CommandQueue(*Ctx, Dev, CL_QUEUE_PROFILING_ENABLE, {}, 0));

  Ref<Event> userEvent() { return Ref<Event>::adopt(new Event(*Ctx, nullptr, CL_COMMAND_USER)); }

  /// Enqueues a task command and drops the application's event reference.
  Ref<Event> enqueueTask(std::function<cl_int()> Body, std::vector<Ref<Event>> Wait = {}) {
    auto Cmd = std::make_shared<TaskCommand>(*Queue, CL_COMMAND_READ_BUFFER, std::move(Body));
    Ref<Event> Ev = Queue->enqueue(Cmd, Wait);
    Ev->release();
    return Ev;
  }
};

TEST_F(EventTest, StatusMovesForwardOnly) {
  Ref<Event> U = userEvent();
  EXPECT_EQ(U->status(), CL_SUBMITTED);
  U->advance(Event::Stage::Complete);
  EXPECT_EQ(U->status(), CL_COMPLETE);
  U->advance(Event::Stage::Running);
  EXPECT_EQ(U->status(), CL_COMPLETE);
  U->fail(-5);
  EXPECT_EQ(U->status(), CL_COMPLETE);
}

TEST_F(EventTest, CommandWaitsForUserEvent) {
  Ref<Event> U = userEvent();
  std::atomic<int> Ran{0};
  Ref<Event> Ev = enqueueTask([&] { return ++Ran, CL_COMPLETE; }, {U});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(Ran.load(), 0);
  EXPECT_EQ(Ev->status(), CL_SUBMITTED);
  U->advance(Event::Stage::Complete);
  EXPECT_EQ(Ev->wait(), CL_COMPLETE);
  EXPECT_EQ(Ran.load(), 1);
}

TEST_F(EventTest, FailedPrerequisiteFailsDependentsInOrder) {
  Ref<Event> U = userEvent();
  std::atomic<int> Ran{0};
  Ref<Event> First = enqueueTask([&] { return ++Ran, CL_COMPLETE; }, {U});
  Ref<Event> Second = enqueueTask([&] { return ++Ran, CL_COMPLETE; });
  U->fail(-42);
  EXPECT_EQ(First->wait(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(Second->wait(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(Ran.load(), 0);
}

TEST_F(EventTest, ProfilingTimestampsAreMonotonic) {
  Ref<Event> Ev = enqueueTask([] { return CL_COMPLETE; });
  ASSERT_EQ(Ev->wait(), CL_COMPLETE);
  cl_ulong Prev = 0;
  for (cl_profiling_info I = CL_PROFILING_COMMAND_QUEUED; I <= CL_PROFILING_COMMAND_COMPLETE; ++I) {
    cl_ulong T = Ev->timestamp(I);
    EXPECT_GT(T, 0u);
    EXPECT_GE(T, Prev);
    Prev = T;
  }
}

TEST_F(EventTest, LongChainOfDependentsDoesNotRecurse) {
  // Completing the head releases 20,000 markers in turn; a recursive
  // notification would overflow the stack.
  Ref<Event> U = userEvent();
  Ref<Event> Last;
  for (int I = 0; I < 20000; ++I) {
    auto Cmd = std::make_shared<SyncCommand>(*Queue, CL_COMMAND_MARKER);
    Last = Queue->enqueue(Cmd, I == 0 ? std::vector<Ref<Event>>{U} : std::vector<Ref<Event>>{});
    Last->release();
  }
  U->advance(Event::Stage::Complete);
  EXPECT_EQ(Last->wait(), CL_COMPLETE);
}

void CL_CALLBACK recordStatus(cl_event, cl_int Status, void *Data) {
  static_cast<std::vector<cl_int> *>(Data)->push_back(Status);
}

TEST_F(EventTest, CallbacksFireOncePerRequestedStatus) {
  Ref<Event> U = userEvent();
  std::vector<cl_int> Seen;
  U->addCallback(CL_COMPLETE, recordStatus, &Seen);
  U->addCallback(CL_SUBMITTED, recordStatus, &Seen); // already reached: fires now
  ASSERT_EQ(Seen.size(), 1u);
  EXPECT_EQ(Seen[0], CL_SUBMITTED);
  U->advance(Event::Stage::Complete);
  ASSERT_EQ(Seen.size(), 2u);
  EXPECT_EQ(Seen[1], CL_COMPLETE);
}

/// A command that starts one child before its own work ends, as a kernel
/// that enqueues a kernel does.
struct ParentCommand : PoolCommand {
  using PoolCommand::PoolCommand;
  cl_int run() override {
    addChild();
    return CL_COMPLETE;
  }
};

/// Waits (bounded) until Ev has passed Ended.
bool waitEnded(Event &Ev) {
  for (int I = 0; I < 5000 && !Ev.timestamp(CL_PROFILING_COMMAND_END); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return Ev.timestamp(CL_PROFILING_COMMAND_END) != 0;
}

TEST_F(EventTest, EndedIsNotCompleteWhileAChildIsOutstanding) {
  auto Cmd = std::make_shared<ParentCommand>(*Queue, CL_COMMAND_NDRANGE_KERNEL);
  Ref<Event> Ev = Queue->enqueue(Cmd, {});
  Ev->release();
  std::atomic<int> Ran{0};
  Ref<Event> After = enqueueTask([&] { return ++Ran, CL_COMPLETE; });
  ASSERT_TRUE(waitEnded(*Ev));
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(Ev->status(), CL_RUNNING) << "Ended reads as CL_RUNNING";
  EXPECT_EQ(Ev->timestamp(CL_PROFILING_COMMAND_COMPLETE), 0u);
  EXPECT_EQ(Ran.load(), 0) << "the next command of an in-order queue waits for Complete";
  Cmd->childDone(CL_COMPLETE);
  EXPECT_EQ(Ev->wait(), CL_COMPLETE);
  EXPECT_LE(Ev->timestamp(CL_PROFILING_COMMAND_END),
            Ev->timestamp(CL_PROFILING_COMMAND_COMPLETE));
  EXPECT_EQ(After->wait(), CL_COMPLETE);
  EXPECT_EQ(Ran.load(), 1);
}

TEST_F(EventTest, AFailedChildFailsItsParentAndDependents) {
  auto Cmd = std::make_shared<ParentCommand>(*Queue, CL_COMMAND_NDRANGE_KERNEL);
  Ref<Event> Ev = Queue->enqueue(Cmd, {});
  Ev->release();
  Ref<Event> After = enqueueTask([] { return CL_COMPLETE; });
  ASSERT_TRUE(waitEnded(*Ev));
  Cmd->childDone(CL_OUT_OF_RESOURCES);
  EXPECT_EQ(Ev->wait(), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(After->wait(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
}

} // namespace
