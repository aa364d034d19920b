// Command lifecycle: start on readiness, finish exactly once.
#include "runtime/commands/Command.h"
#include "runtime/execution/CommandQueue.h"
#include "runtime/platform/Device.h"

namespace weft::rt {

Command::Command(CommandQueue &Q, cl_command_type Type)
    : Queue(&Q), Ev(new Event(Q.context(), &Q, Type)) {
  // The event is born with one application reference besides ours; the API
  // layer hands it to the application or drops it (see Entry.h).
}

Command::~Command() = default;

Device &Command::device() const { return Queue->device(); }

void Command::awaitPrerequisites(size_t Count) {
  Pinned = shared_from_this();
  Waiting.store(Count + 1, std::memory_order_relaxed);
}

void Command::prerequisiteDone(cl_int Status) {
  if (Status < 0)
    PrerequisiteFailed.store(true, std::memory_order_relaxed);
  if (Waiting.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  std::shared_ptr<Command> Self = std::move(Pinned); // alive until this returns
  if (PrerequisiteFailed.load(std::memory_order_relaxed))
    Ev->fail(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  else
    start();
}

void Command::start() {
  Ev->advance(Event::Stage::Ready);
  execute();
}

void Command::finish(cl_int Status) {
  if (Status < 0) {
    Ev->fail(Status);
    return;
  }
  Ev->advance(Event::Stage::Ended);
  settle();
}

void Command::addChild() { Outstanding.fetch_add(1, std::memory_order_relaxed); }

void Command::childDone(cl_int Status) {
  if (Status < 0) {
    cl_int None = CL_SUCCESS;
    ChildError.compare_exchange_strong(None, Status);
  }
  settle();
}

void Command::settle() {
  if (Outstanding.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  // A command that failed itself is terminal already; fail() then does nothing.
  if (cl_int Error = ChildError.load(); Error < 0)
    Ev->fail(Error);
  else
    Ev->advance(Event::Stage::Complete);
}

void Command::runOnPool(std::function<cl_int()> Body) {
  // The task keeps the command (and so its references) alive until done.
  device().backend().run([Self = shared_from_this(), Body = std::move(Body)] {
    Self->Ev->advance(Event::Stage::Running);
    Self->finish(Body());
  });
}

void PoolCommand::execute() {
  const size_t Parts = parts(device().backend().properties().ComputeUnits);
  if (Parts <= 1) {
    runOnPool([this] { return run(); }); // runOnPool keeps this command alive
    return;
  }
  // The pool holds the command (and so its references) until the end.
  auto Self = std::static_pointer_cast<PoolCommand>(shared_from_this());
  PoolCommand *Raw = Self.get();
  device().backend().runParts(
      Parts, [Raw, Parts](size_t I) { Raw->runPart(I, Parts); }, std::move(Self));
}

void PoolCommand::launchStarted() { event().advance(Event::Stage::Running); }

void PoolCommand::launchEnded(Status S) { finish(S ? CL_COMPLETE : S.error().Code); }

} // namespace weft::rt
