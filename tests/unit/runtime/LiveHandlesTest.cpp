// The live-handle registry: an object is live from its construction to its
// destruction and at no other time, any pointer value may be asked about,
// and threads registering and asking at once see consistent answers.
#include "runtime/LiveHandles.h"
#include "runtime/Object.h"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

using namespace weft::rt;

namespace {

class Thing : public Object<_cl_event, HandleKind::Event> {};

TEST(LiveHandles, AnObjectIsLiveFromConstructionToDestruction) {
  const void *Address;
  {
    auto T = std::make_unique<Thing>();
    Address = static_cast<_cl_event *>(T.get());
    EXPECT_TRUE(handles::live(Address));
  }
  EXPECT_FALSE(handles::live(Address)) << "a destroyed object is not live";
}

TEST(LiveHandles, AnyPointerValueCanBeAskedAbout) {
  int Local = 0;
  for (uintptr_t V : {uintptr_t(0), uintptr_t(1), uintptr_t(0x2a), uintptr_t(&Local),
                      ~uintptr_t(0), uintptr_t(0x7fff0000dead)})
    EXPECT_FALSE(handles::live(reinterpret_cast<const void *>(V)));
}

TEST(LiveHandles, ThreadsRegisterAndAskAtOnce) {
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([] {
      for (int Round = 0; Round < 2000; ++Round) {
        std::vector<std::unique_ptr<Thing>> Mine(8);
        for (auto &M : Mine)
          M = std::make_unique<Thing>();
        for (auto &M : Mine)
          ASSERT_TRUE(handles::live(static_cast<_cl_event *>(M.get())));
      }
    });
  for (auto &T : Threads)
    T.join();
}

} // namespace
