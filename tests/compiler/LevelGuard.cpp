// The ISA matrix's runs (docs/building.md): CTest runs the tests that run
// kernels again with WEFT_CPU set to each lower x86-64 level, so that an
// AVX-512 machine runs the kernels an AVX2 or SSE4.2 one would compile. A
// run for a level the host cannot run, or for the host's own level (the
// plain run covers it), skips every test and says why ("Level skipped",
// which CTest reads as a skip). Without WEFT_CPU this does nothing.
#include "compiler/codegen/HostTarget.h"

#include <gtest/gtest.h>

namespace weft::compiler::test {
namespace {

class LevelGuard : public testing::Environment {
public:
  void SetUp() override {
    const std::string Cpu = HostTarget::requestedCpu();
    if (Cpu.empty())
      return;
    if (std::string Why = HostTarget::whyHostCannotRun(Cpu); !Why.empty())
      GTEST_SKIP() << "Level skipped: " << HostTarget::CpuVariable << "=" << Cpu << ": " << Why;
    if (Cpu == HostTarget::hostLevel())
      GTEST_SKIP() << "Level skipped: " << HostTarget::CpuVariable << "=" << Cpu
                   << " is the host's own level: the run without it covers it";
  }
};

[[maybe_unused]] testing::Environment *const Guard =
    testing::AddGlobalTestEnvironment(new LevelGuard);

} // namespace
} // namespace weft::compiler::test
