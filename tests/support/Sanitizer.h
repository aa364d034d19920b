// What a test tells the sanitizer build about itself (the other side is
// tests/support/SanitizerDefaults.cpp, linked only into sanitizer builds).
#pragma once

#include <gtest/gtest.h>

extern "C" void weft_test_abandons_memory() __attribute__((weak));

namespace weft::test {

/// The test crashes the compiler on purpose: crash recovery abandons the
/// crashed build's objects rather than destroy them half-built
/// (src/compiler/CrashRecovery.h), so LeakSanitizer must not check this
/// test's process at exit. Every test runs in a process of its own (ctest),
/// so no other test loses the check. Nothing in other builds.
inline void expectAbandonedMemory() {
  if (weft_test_abandons_memory)
    weft_test_abandons_memory();
}

} // namespace weft::test

/// At the top of a test that crashes the compiler on purpose: the crashed
/// build's memory is abandoned (expectAbandonedMemory). Under
/// ThreadSanitizer the test is skipped: LLVM's crash recovery leaves the
/// signal handler by longjmp, and ThreadSanitizer then takes every later
/// allocation of the thread for one inside the handler ("signal-unsafe call
/// inside of a signal"). The normal and the AddressSanitizer builds run it.
#if defined(__SANITIZE_THREAD__)
#define WEFT_EXPECT_COMPILER_CRASHES()                                                             \
  GTEST_SKIP() << "crash recovery leaves a signal handler by longjmp, which ThreadSanitizer "      \
                  "does not follow"
#else
#define WEFT_EXPECT_COMPILER_CRASHES() ::weft::test::expectAbandonedMemory()
#endif
