// Happens-before edges that ThreadSanitizer cannot see by itself.
//
// Debian's libtbb is not built with -fsanitize=thread, so TSan does not see
// the synchronization inside oneTBB when a task moves from the thread that
// enqueues it to the worker that runs it, or a range moves between workers.
// In a TSan build (WEFT_SANITIZE=thread) the code that hands work to TBB
// states those edges itself: a release before handing work to TBB, an
// acquire where the work starts (HandedOff below, for parallel_for), and
// TBB's own bookkeeping on the enqueuing thread is not recorded. One place does: the CPU device's
// work pool (src/device/cpu/CpuDevice.cpp). The kernel's, the runtime's and the compiler's own
// accesses stay fully checked. In every other build these are empty inline functions. (A header
// of the runtime layer; it needs neither TBB nor LLVM.)
#pragma once

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void *Addr);
extern "C" void __tsan_release(void *Addr);
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
#endif

namespace weft::tsan {

#if defined(__SANITIZE_THREAD__)
inline void release(void *Sync) { __tsan_release(Sync); }
inline void acquire(void *Sync) { __tsan_acquire(Sync); }
/// While alive, the calling thread's memory accesses are not recorded.
struct IgnoreScope {
  IgnoreScope() { __tsan_ignore_thread_begin(); }
  ~IgnoreScope() { __tsan_ignore_thread_end(); }
};
#else
inline void release(void *) {}
inline void acquire(void *) {}
struct IgnoreScope {};
#endif

/// The blocks of oneTBB's small-object pool (tasks, parallel_for's
/// bodies), which pass from a finished task to the next on any thread:
/// what Weft destroys in a block releases this, what it builds there
/// acquires it.
inline int PoolBlocks;

/// A base for what a task Weft hands to oneTBB holds: its destructor, which
/// runs after the derived members are gone, releases PoolBlocks.
struct PoolBlock {
  ~PoolBlock() { release(&PoolBlocks); }
};

/// A body for tbb::parallel_for that states the hand-offs of its own
/// copies. TBB copies a body (and the range beside it, first) for each
/// worker that steals part of the range, and the worker reads that copy:
/// memory written on one thread and read on another across TBB's
/// uninstrumented queues. Each copy acquires what it copies from and
/// releases itself; each call acquires its copy before reading it or the
/// range, and releases Fn when done, so that after parallel_for the caller
/// acquires &Fn to see every call's effects:
///
///   tbb::parallel_for(Range, tsan::HandedOff(Fn));
///   tsan::acquire(&Fn);
///
/// A copy lives in a block of oneTBB's small-object pool, which hands the
/// block of a finished task to the next task, on any thread: a copy
/// acquires PoolBlocks before it writes its block, and releases it when it
/// is destroyed (as PoolBlock does for what else Weft puts in those blocks).
template <typename F> class HandedOff {
public:
  explicit HandedOff(F &Fn) : Fn((acquire(&PoolBlocks), &Fn)) { release(this); }
  HandedOff(const HandedOff &Other)
      : Fn((acquire(&PoolBlocks), acquire(const_cast<HandedOff *>(&Other)), Other.Fn)) {
    release(this);
  }
  ~HandedOff() { release(&PoolBlocks); }
  HandedOff &operator=(const HandedOff &) = delete;
  template <typename Range> void operator()(const Range &R) const {
    acquire(const_cast<HandedOff *>(this));
    (*Fn)(R);
    release(Fn);
  }

private:
  F *Fn;
};

} // namespace weft::tsan
