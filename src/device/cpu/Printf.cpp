#include "device/cpu/Printf.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace weft::cpu {

namespace {

double halfToDouble(uint16_t H) {
  int Exp = H >> 10 & 0x1f;
  double Mant = H & 0x3ff;
  double V = Exp == 0    ? std::ldexp(Mant, -24)
             : Exp == 31 ? (Mant ? NAN : INFINITY)
                         : std::ldexp(Mant + 1024, Exp - 25);
  return H & 0x8000 ? -V : V;
}

/// One element of an argument: its bytes zero-extended.
uint64_t rawElement(const rt::PrintfArg &A, unsigned I) {
  unsigned Bytes = rt::printfArgElementBytes(A.Type);
  uint64_t V = 0;
  std::memcpy(&V, static_cast<const char *>(A.Data) + size_t(I) * Bytes, std::min(Bytes, 8u));
  return V;
}

int64_t signExtend(uint64_t V, unsigned Bytes) {
  if (Bytes >= 8)
    return int64_t(V);
  unsigned Shift = 64 - 8 * Bytes;
  return int64_t(V << Shift) >> Shift;
}

double floatElement(const rt::PrintfArg &A, unsigned I) {
  uint64_t Raw = rawElement(A, I);
  switch (rt::printfArgElementBytes(A.Type)) {
  case 2:
    return halfToDouble(uint16_t(Raw));
  case 4: {
    float F;
    uint32_t Bits = uint32_t(Raw);
    std::memcpy(&F, &Bits, 4);
    return F;
  }
  default: {
    double D;
    std::memcpy(&D, &Raw, 8);
    return D;
  }
  }
}

/// The parsed conversion specification of one '%'.
struct Spec {
  std::string Flags;
  int Width = -1, Precision = -1; // -1: not given
  unsigned VectorLength = 0;      // 0: a scalar conversion
  std::string Length;
  char Conversion = 0;
};

/// Parses the specification after a '%' at P; returns the character after
/// it, or nullptr if it is not a valid one.
const char *parseSpec(const char *P, Spec &S, bool &WidthStar, bool &PrecisionStar) {
  while (*P && std::strchr("-+ #0", *P))
    S.Flags += *P++;
  if (*P == '*') {
    WidthStar = true;
    ++P;
  } else if (*P >= '0' && *P <= '9') {
    S.Width = 0;
    while (*P >= '0' && *P <= '9')
      S.Width = S.Width * 10 + (*P++ - '0');
  }
  if (*P == '.') {
    ++P;
    S.Precision = 0;
    if (*P == '*') {
      PrecisionStar = true;
      ++P;
    } else {
      while (*P >= '0' && *P <= '9')
        S.Precision = S.Precision * 10 + (*P++ - '0');
    }
  }
  if (*P == 'v') {
    ++P;
    while (*P >= '0' && *P <= '9')
      S.VectorLength = S.VectorLength * 10 + (*P++ - '0');
    if (S.VectorLength != 2 && S.VectorLength != 3 && S.VectorLength != 4 &&
        S.VectorLength != 8 && S.VectorLength != 16)
      return nullptr;
  }
  for (const char *L : {"hh", "hl", "h", "ll", "l", "z", "t", "j", "L"})
    if (std::strncmp(P, L, std::strlen(L)) == 0) {
      S.Length = L;
      P += S.Length.size();
      break;
    }
  if (!*P || !std::strchr("diouxXcspfFeEgGaA", *P))
    return nullptr;
  S.Conversion = *P++;
  // A vector needs a length modifier; hl exists only for vectors.
  if (S.VectorLength && S.Length.empty() && !std::strchr("fFeEgGaA", S.Conversion))
    return nullptr;
  if (!S.VectorLength && S.Length == "hl")
    return nullptr;
  return P;
}

/// snprintf of one value with Host ("%-08.3lld"-like) appended to Out.
template <typename T> void append(std::string &Out, const std::string &Host, T V) {
  char Small[128];
  int N = std::snprintf(Small, sizeof(Small), Host.c_str(), V);
  if (N < 0)
    return;
  if (size_t(N) < sizeof(Small)) {
    Out.append(Small, size_t(N));
    return;
  }
  size_t At = Out.size();
  Out.resize(At + size_t(N) + 1);
  std::snprintf(Out.data() + At, size_t(N) + 1, Host.c_str(), V);
  Out.resize(At + size_t(N));
}

/// The host printf conversion that formats one element for S (width and
/// precision resolved): S's flags, width and precision, and the conversion;
/// integers go through long long (formatElement narrows them first).
std::string hostFormat(const Spec &S) {
  std::string Host = "%" + S.Flags;
  if (S.Width >= 0)
    Host += std::to_string(S.Width);
  if (S.Precision >= 0)
    Host += "." + std::to_string(S.Precision);
  if (std::strchr("diouxX", S.Conversion))
    Host += "ll";
  return Host + S.Conversion;
}

/// Formats element I of A by S with Host (hostFormat(S)) into Out.
void formatElement(std::string &Out, const Spec &S, const std::string &Host,
                   const rt::PrintfArg &A, unsigned I) {
  unsigned Bytes = rt::printfArgElementBytes(A.Type);
  rt::PrintfArgKind Kind = rt::printfArgKind(A.Type);
  char C = S.Conversion;
  if (std::strchr("fFeEgGaA", C)) {
    double V = Kind == rt::PrintfArgKind::Float ? floatElement(A, I)
                                                : double(signExtend(rawElement(A, I), Bytes));
    append(Out, Host, V);
    return;
  }
  if (C == 's') {
    const char *Str = reinterpret_cast<const char *>(uintptr_t(rawElement(A, I)));
    append(Out, Host, Str ? Str : "(null)");
    return;
  }
  if (C == 'p') {
    append(Out, Host, reinterpret_cast<void *>(uintptr_t(rawElement(A, I))));
    return;
  }
  uint64_t Raw = rawElement(A, I);
  int64_t Signed = signExtend(Raw, Bytes);
  if (C == 'c') {
    append(Out, Host, int(static_cast<unsigned char>(Raw)));
    return;
  }
  // Narrow to the type the length modifier names, as C's printf does.
  const std::string &L = S.Length;
  bool IsSigned = C == 'd' || C == 'i';
  if (L == "hh")
    Signed = IsSigned ? int64_t(static_cast<signed char>(Signed))
                      : int64_t(static_cast<unsigned char>(Raw));
  else if (L == "h")
    Signed = IsSigned ? int64_t(static_cast<short>(Signed))
                      : int64_t(static_cast<unsigned short>(Raw));
  else if (L.empty() || L == "hl")
    Signed = IsSigned ? int64_t(static_cast<int>(Signed)) : int64_t(static_cast<unsigned>(Raw));
  else
    Signed = int64_t(Raw);
  if (IsSigned)
    append(Out, Host, static_cast<long long>(Signed));
  else
    append(Out, Host, static_cast<unsigned long long>(Signed));
}

} // namespace

int formatPrintf(std::string &Out, const char *Format, const rt::PrintfArg *Args, uint32_t Count) {
  if (!Format)
    return -1;
  uint32_t Next = 0;
  for (const char *P = Format; *P;) {
    if (*P != '%') {
      const char *End = std::strchr(P, '%');
      size_t N = End ? size_t(End - P) : std::strlen(P);
      Out.append(P, N);
      P += N;
      continue;
    }
    if (P[1] == '%') {
      Out += '%';
      P += 2;
      continue;
    }
    Spec S;
    bool WidthStar = false, PrecisionStar = false;
    const char *After = parseSpec(P + 1, S, WidthStar, PrecisionStar);
    if (!After) {
      // Not a conversion OpenCL C defines (undefined behaviour): which
      // argument the next one would take is unknowable, so the rest of the
      // format is printed as written and no argument is read. Reading on
      // would hand, say, an int to a later %s as a string pointer.
      Out.append(P);
      return -1;
    }
    const char *SpecStart = P;
    P = After;
    auto intArg = [&](int &V) {
      if (Next >= Count || rt::printfArgKind(Args[Next].Type) != rt::PrintfArgKind::Integer)
        return false;
      V = int(signExtend(rawElement(Args[Next], 0), rt::printfArgElementBytes(Args[Next].Type)));
      ++Next;
      return true;
    };
    if (WidthStar) {
      if (!intArg(S.Width))
        return -1;
      if (S.Width < 0) {
        S.Flags += '-';
        S.Width = -S.Width;
      }
    }
    if (PrecisionStar && !intArg(S.Precision))
      return -1;
    if (Next >= Count)
      return -1;
    const rt::PrintfArg &A = Args[Next++];
    unsigned Elements = rt::printfArgElements(A.Type);
    if (rt::printfArgKind(A.Type) == rt::PrintfArgKind::Other || Elements == 0)
      return -1;
    // Only %s reads memory through its argument: it must be a pointer (a
    // string), not a number the format mismatched; the rest of the format
    // is then printed as written.
    if (S.Conversion == 's' && rt::printfArgKind(A.Type) != rt::PrintfArgKind::Pointer) {
      Out.append(SpecStart);
      return -1;
    }
    const std::string Host = hostFormat(S);
    if (!S.VectorLength) {
      formatElement(Out, S, Host, A, 0);
      continue;
    }
    if (Elements != S.VectorLength)
      return -1;
    for (unsigned I = 0; I < Elements; ++I) {
      if (I)
        Out += ',';
      formatElement(Out, S, Host, A, I);
    }
  }
  return 0;
}

int PrintfOutput::print(void *Sink, const char *Format, const rt::PrintfArg *Args,
                        uint32_t Count) {
  std::string &Buffer = *static_cast<std::string *>(Sink);
  int R = formatPrintf(Buffer, Format, Args, Count);
  if (Buffer.size() >= BufferSize)
    write(Buffer);
  return R;
}

void PrintfOutput::flush() {
  for (std::string &Buffer : Buffers)
    write(Buffer);
}

void PrintfOutput::write(std::string &Text) {
  if (Text.empty())
    return;
  // One writer at a time, so the output of one worker stays in one piece.
  static std::mutex Mutex;
  std::lock_guard<std::mutex> Lock(Mutex);
  std::fwrite(Text.data(), 1, Text.size(), stdout);
  std::fflush(stdout);
  Text.clear();
}

} // namespace weft::cpu
