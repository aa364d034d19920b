// What a test tells the sanitizer build about itself (the other side is
// tests/support/SanitizerDefaults.cpp, linked only into sanitizer builds).
#pragma once

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
