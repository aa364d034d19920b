// Default options for sanitizer builds (WEFT_SANITIZE), linked into every
// executable of the build so that test runs need no environment.
//
// LeakSanitizer is told not to treat thread-local storage as a root:
// GCC 12's LSan misreads glibc 2.36's dynamic TLS of dlopen'd libraries
// (libweft.so and libLLVM come in through the ICD loader) and its tracer
// crashes. That can only add reports, never hide a leak; the ones it adds,
// glibc's own bookkeeping reachable only from TLS (dlopen's global scope
// and the dependency list of each library it maps,
// thread_local destructors, dlerror's message buffer), are suppressed by
// the glibc function that allocates them.
//
// A test that crashes the compiler on purpose turns the exit leak check of
// its own process off (tests/support/Sanitizer.h): the crashed build's
// objects are abandoned, not destroyed.
//
// ThreadSanitizer: Debian's libtbb is not instrumented. The work pool and
// the compiler mark their own hand-offs to TBB (src/runtime/TsanHandOff.h);
// the races that remain inside oneTBB's own machinery are suppressed in
// tests/support/tsan.supp, which says how.
#include "SanitizerSuppressions.h" // tsan.supp and lsan.supp, as strings (CMakeLists.txt)

namespace {
int AbandonsMemory = 0;
} // namespace

extern "C" {
__attribute__((visibility("default"), used)) void weft_test_abandons_memory() {
  AbandonsMemory = 1;
}
__attribute__((visibility("default"), used)) int __lsan_is_turned_off() { return AbandonsMemory; }

__attribute__((visibility("default"), used)) const char *__tsan_default_suppressions() {
  return WeftTsanSuppressions;
}

__attribute__((visibility("default"), used)) const char *__lsan_default_options() {
  return "use_tls=0";
}
__attribute__((visibility("default"), used)) const char *__lsan_default_suppressions() {
  return WeftLsanSuppressions;
}
}
