// Default options for sanitizer builds (WEFT_SANITIZE), linked into every
// executable of the build so that test runs need no environment.
//
// LeakSanitizer is told not to treat thread-local storage as a root:
// GCC 12's LSan misreads glibc 2.36's dynamic TLS of dlopen'd libraries
// (libweft.so and libLLVM come in through the ICD loader) and its tracer
// crashes. That can only add reports, never hide a leak; the ones it adds,
// glibc's own bookkeeping reachable only from TLS (dlopen's global scope,
// thread_local destructors, dlerror's message buffer), are suppressed by
// the glibc function that allocates them.
extern "C" {
__attribute__((visibility("default"), used)) const char *__lsan_default_options() {
  return "use_tls=0";
}
__attribute__((visibility("default"), used)) const char *__lsan_default_suppressions() {
  return "leak:add_to_global_resize\n"
         "leak:__cxa_thread_atexit_impl\n"
         "leak:_dlerror_run\n";
}
}
