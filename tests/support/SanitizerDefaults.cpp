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
// the compiler mark their own hand-offs to TBB (src/runtime/TsanHandOff.h); what remains are
// races inside oneTBB's parallel_for machinery itself (range splitting,
// stealing, the reduction tree), inlined from its headers. They are
// suppressed by their top frame only (its function, or its file when the
// function is a lambda of a oneTBB header), so a race whose innermost
// frame is ours is still reported.
namespace {
int AbandonsMemory = 0;
} // namespace

extern "C" {
__attribute__((visibility("default"), used)) void weft_test_abandons_memory() {
  AbandonsMemory = 1;
}
__attribute__((visibility("default"), used)) int __lsan_is_turned_off() { return AbandonsMemory; }

__attribute__((visibility("default"), used)) const char *__tsan_default_suppressions() {
  return "race_top:tbb::detail::\n"
         "race_top:/oneapi/tbb/\n"
         "race_top:^start_for\n"
         "race_top:^check_being_stolen\n"
         "race_top:^offer_work_impl\n"
         "race_top:^finalize$\n"
         "race_top:^~enqueue_task\n"
         "race_top:^_M_destroy$\n"
         "race_top:std::__atomic_base<*>::__atomic_base\n"
         "race_top:std::__atomic_base<int>::operator--\n"
         "race_top:std::__atomic_base<int>::load\n"
         "race_top:std::__atomic_base<bool>::store\n"
         "race_top:std::_Function_base::~_Function_base\n"
         "race_top:std::function<void ()>::operator()\n";
}

__attribute__((visibility("default"), used)) const char *__lsan_default_options() {
  return "use_tls=0";
}
__attribute__((visibility("default"), used)) const char *__lsan_default_suppressions() {
  return "leak:add_to_global_resize\n"
         "leak:__cxa_thread_atexit_impl\n"
         "leak:_dlerror_run\n"
         "leak:_dl_map_object_deps\n";
}
}
