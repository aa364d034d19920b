// The native limits (see the header). Compiled with -O3 -march=native
// -ffp-contract=fast (bench/CMakeLists.txt): the loops below are what the
// host's compiler makes of plain C++ for this very CPU, run on one thread
// per CPU the process may use, all started together; the time is the
// wall time from the start to the last thread's end.
//
// - fma.float, fma.double: twelve independent chains of multiply-adds on
//   the host's widest vectors (512, 256 or 128 bits), enough to fill the
//   FMA pipelines of every core. Twelve accumulators and the two operands
//   fit the 16 registers of AVX2 and SSE: 512-bit vectors there were each
//   split into two or four registers, 24 or 48 accumulators that spilled,
//   and the limit read 4.2 GFLOP/s on an AVX2 core that does 19.7.
// - stream.copy, stream.triad: STREAM's copy (a = b) and triad
//   (a = b + s c) over arrays of 64 MiB (16 MiB with --quick), counted as
//   STREAM counts them (16 and 24 bytes an element of 8). The better of
//   two loops: plain stores, and non-temporal ones (x86 `movntpd`), which
//   skip the read of each line a plain store first makes. The arrays are
//   advised as huge pages, as Weft's buffers of that size are.
// - stream.read: the sum of an array of 64 MiB of uints: the bandwidth a
//   reduction can reach.
#include "NativeLimits.h"

#include "Harness.h"

#include <sched.h>
#include <sys/mman.h>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

namespace weft::bench {

namespace {

/// Runs Body(Thread, Threads) on every host CPU at once; the seconds from
/// the common start to the last end.
template <typename F> double onEveryCpu(F &&Body) {
  const unsigned N = hostThreads();
  std::atomic<unsigned> Ready{0};
  std::atomic<bool> Go{false};
  std::vector<std::thread> Threads;
  std::vector<double> Ends(N, 0);
  for (unsigned T = 0; T < N; ++T)
    Threads.emplace_back([&, T] {
      Ready.fetch_add(1);
      while (!Go.load(std::memory_order_acquire))
        std::this_thread::yield();
      Body(T, N);
      Ends[T] = now();
    });
  while (Ready.load() != N)
    std::this_thread::yield();
  const double Start = now();
  Go.store(true, std::memory_order_release);
  for (std::thread &T : Threads)
    T.join();
  double End = Start;
  for (double E : Ends)
    End = std::max(End, E);
  return End - Start;
}

// The widest vector register the host has: the chains and the streams fill it.
#if defined(__AVX512F__)
constexpr size_t VectorBytes = 64;
#elif defined(__AVX__)
constexpr size_t VectorBytes = 32;
#elif defined(__SSE2__)
constexpr size_t VectorBytes = 16;
#else
constexpr size_t VectorBytes = 8;
#endif

/// GFLOP/s of the chains on every CPU at once, each running about Seconds.
template <typename T> double fmaFlops(double Seconds) {
  constexpr int Lanes = VectorBytes / sizeof(T);
  constexpr int Chains = 12;
  typedef T Vec __attribute__((vector_size(VectorBytes)));
  auto chains = [](uint64_t Iters) {
    Vec Acc[Chains];
    for (int C = 0; C < Chains; ++C)
      for (int L = 0; L < Lanes; ++L)
        Acc[C][L] = T(C + L) * T(1e-3);
    Vec A, B;
    for (int L = 0; L < Lanes; ++L) {
      A[L] = T(0.999999);
      B[L] = T(1e-6);
    }
    for (uint64_t I = 0; I < Iters; ++I)
      for (int C = 0; C < Chains; ++C)
        Acc[C] = Acc[C] * A + B;
    T Sum = 0;
    for (int C = 0; C < Chains; ++C)
      for (int L = 0; L < Lanes; ++L)
        Sum += Acc[C][L];
    return Sum;
  };
  // Where every thread's result goes, so that no chain is optimized away.
  static std::atomic<T> Sink;
  // Calibrate on one thread, then run that on every CPU.
  uint64_t Iters = 1 << 12;
  for (;;) {
    double Start = now();
    Sink.store(chains(Iters), std::memory_order_relaxed);
    double Took = now() - Start;
    if (Took > Seconds / 8 || Iters > (uint64_t(1) << 34)) {
      Iters = uint64_t(double(Iters) * Seconds / std::max(Took, 1e-9)) + 1;
      break;
    }
    Iters *= 4;
  }
  const double Took =
      onEveryCpu([&](unsigned, unsigned) { Sink.store(chains(Iters), std::memory_order_relaxed); });
  const double Flops = 2.0 * Lanes * Chains * double(Iters) * hostThreads();
  return Flops / Took * 1e-9;
}

/// Thread T's share [Begin, End) of N elements among Threads.
void slice(size_t N, unsigned T, unsigned Threads, size_t &Begin, size_t &End) {
  Begin = N * T / Threads;
  End = N * (T + 1) / Threads;
}

// The widest vector of doubles the host has, and its non-temporal store.
constexpr size_t StreamLanes = VectorBytes / sizeof(double);
typedef double StreamVec __attribute__((vector_size(StreamLanes * sizeof(double))));

void streamStore(double *P, StreamVec V) {
#if defined(__AVX512F__)
  _mm512_stream_pd(P, V);
#elif defined(__AVX__)
  _mm256_stream_pd(P, V);
#elif defined(__SSE2__)
  _mm_stream_pd(P, V);
#else
  *P = V[0];
#endif
}

/// A double, or a StreamVec of doubles, read from P.
template <typename T> T load(const double *P) {
  T V;
  std::memcpy(&V, P, sizeof(V));
  return V;
}

/// Out[I] = Value(I, T()) for I in [Begin, End), T double; with NonTemporal,
/// whole aligned vectors (T StreamVec) in non-temporal stores.
template <typename F>
void storeRange(double *Out, size_t Begin, size_t End, bool NonTemporal, F Value) {
  size_t I = Begin;
  if (NonTemporal) {
    for (; I < End && reinterpret_cast<uintptr_t>(Out + I) % sizeof(StreamVec) != 0; ++I)
      Out[I] = Value(I, 0.0);
    for (; I + StreamLanes <= End; I += StreamLanes)
      streamStore(Out + I, Value(I, StreamVec{}));
#if defined(__SSE2__)
    _mm_sfence();
#endif
  }
  for (; I < End; ++I)
    Out[I] = Value(I, 0.0);
}

/// Bytes (a multiple of 2 MiB) on 2 MiB boundaries, advised as huge pages
/// before the first touch, as Weft's buffers of that size are.
std::unique_ptr<double[], void (*)(void *)> hugeArray(size_t Bytes) {
  constexpr size_t HugePage = size_t(2) << 20;
  auto *P = static_cast<double *>(std::aligned_alloc(HugePage, Bytes));
  if (!P)
    throw std::bad_alloc();
  madvise(P, Bytes, MADV_HUGEPAGE);
  return {P, std::free};
}

double streamLimit(const std::string &Kind, bool Quick, bool NonTemporal) {
  const size_t Bytes = size_t(Quick ? 16 : 64) << 20;
  const size_t N = Bytes / sizeof(double);
  auto A = hugeArray(Bytes), B = hugeArray(Bytes), C = hugeArray(Bytes);
  onEveryCpu([&](unsigned T, unsigned Threads) { // first touch, and values
    size_t Begin, End;
    slice(N, T, Threads, Begin, End);
    for (size_t I = Begin; I < End; ++I) {
      A[I] = 0;
      B[I] = double(I & 1023);
      C[I] = 0.5;
    }
  });
  double *Out = A.get();
  const double *In = B.get(), *In2 = C.get();
  const int Passes = Quick ? 3 : 10;
  const double S = 3.0;
  double Took = 0;
  static std::atomic<uint64_t> Sink; // every thread's sum, so that none is optimized away
  if (Kind == "stream.copy")
    Took = onEveryCpu([&](unsigned T, unsigned Threads) {
      size_t Begin, End;
      slice(N, T, Threads, Begin, End);
      for (int P = 0; P < Passes; ++P)
        storeRange(Out, Begin, End, NonTemporal,
                   [=](size_t I, auto T) { return load<decltype(T)>(In + I); });
    });
  else if (Kind == "stream.triad")
    Took = onEveryCpu([&](unsigned T, unsigned Threads) {
      size_t Begin, End;
      slice(N, T, Threads, Begin, End);
      for (int P = 0; P < Passes; ++P)
        storeRange(Out, Begin, End, NonTemporal, [=](size_t I, auto T) {
          return load<decltype(T)>(In + I) + S * load<decltype(T)>(In2 + I);
        });
    });
  else {
    const uint32_t *Words = reinterpret_cast<const uint32_t *>(In);
    const size_t Count = Bytes / sizeof(uint32_t);
    Took = onEveryCpu([&](unsigned T, unsigned Threads) {
      size_t Begin, End;
      slice(Count, T, Threads, Begin, End);
      uint32_t Sum = 0;
      for (int P = 0; P < Passes; ++P)
        for (size_t I = Begin; I < End; ++I)
          Sum += Words[I];
      Sink.store(Sum, std::memory_order_relaxed);
    });
  }
  const double PerPass = Kind == "stream.copy"    ? 2.0 * Bytes
                         : Kind == "stream.triad" ? 3.0 * Bytes
                                                  : double(Bytes);
  return PerPass * Passes / Took * 1e-9;
}

} // namespace

unsigned hostThreads() {
  cpu_set_t Set;
  if (sched_getaffinity(0, sizeof(Set), &Set) == 0 && CPU_COUNT(&Set) > 0)
    return unsigned(CPU_COUNT(&Set));
  return std::max(1u, std::thread::hardware_concurrency());
}

const std::vector<NativeLimit> &nativeLimits() {
  static const std::vector<NativeLimit> Limits = {
      {"fma.float", "GFLOP/s", "float multiply-adds, 12 chains of the widest vectors per CPU",
       true},
      {"fma.double", "GFLOP/s", "double multiply-adds, 12 chains of the widest vectors per CPU",
       true},
      {"stream.copy", "GB/s",
       "STREAM copy of 64 MiB arrays of double, every CPU, plain or non-temporal stores"},
      {"stream.triad", "GB/s",
       "STREAM triad of 64 MiB arrays of double, every CPU, plain or non-temporal stores"},
      {"stream.read", "GB/s", "the sum of 64 MiB of uint, every CPU"},
  };
  return Limits;
}

double measureNativeLimit(const std::string &Name, bool Quick) {
  const double Seconds = Quick ? 0.03 : 0.25;
  if (Name == "fma.float")
    return fmaFlops<float>(Seconds);
  if (Name == "fma.double")
    return fmaFlops<double>(Seconds);
  if (Name == "stream.copy" || Name == "stream.triad")
    return std::max(streamLimit(Name, Quick, false), streamLimit(Name, Quick, true));
  if (Name == "stream.read")
    return streamLimit(Name, Quick, false);
  return 0;
}

} // namespace weft::bench
