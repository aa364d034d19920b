// The identity of this build of Weft: the GNU build ID the linker writes
// into libweft.so (a hash of its contents). Two copies of the same build
// have the same one; any change to the code gives another. The disk cache
// keys compiled kernels with it, and the device and driver UUIDs
// (cl_khr_device_uuid) derive from it.
//
// Header-only, so that every layer (the compiler's static library, the API
// layer) can ask without linking one another: the answer is always that of
// the ELF object the caller is linked into.
#pragma once

#include <cstdint>
#include <cstring>
#include <link.h>
#include <string>

namespace weft::rt {

/// The GNU build ID (raw bytes) of the ELF object that contains this
/// function: libweft.so, or a test executable linking a layer directly;
/// empty if the object has none.
inline const std::string &buildIdentity() {
  static const std::string Id = [] {
    struct Search {
      uintptr_t Address;
      std::string Id;
    } S{reinterpret_cast<uintptr_t>(&buildIdentity), ""};
    dl_iterate_phdr(
        [](dl_phdr_info *Info, size_t, void *Data) {
          auto *S = static_cast<Search *>(Data);
          bool Contains = false;
          for (int I = 0; I < Info->dlpi_phnum; ++I) {
            const ElfW(Phdr) &P = Info->dlpi_phdr[I];
            uintptr_t Begin = Info->dlpi_addr + P.p_vaddr;
            if (P.p_type == PT_LOAD && S->Address >= Begin && S->Address < Begin + P.p_memsz)
              Contains = true;
          }
          if (!Contains)
            return 0;
          for (int I = 0; I < Info->dlpi_phnum; ++I) {
            const ElfW(Phdr) &P = Info->dlpi_phdr[I];
            if (P.p_type != PT_NOTE)
              continue;
            const char *Note = reinterpret_cast<const char *>(Info->dlpi_addr + P.p_vaddr);
            const char *End = Note + P.p_memsz;
            auto aligned = [](size_t N) { return (N + 3) & ~size_t(3); };
            while (Note + sizeof(ElfW(Nhdr)) <= End) {
              auto *H = reinterpret_cast<const ElfW(Nhdr) *>(Note);
              const char *Name = Note + sizeof(ElfW(Nhdr));
              const char *Desc = Name + aligned(H->n_namesz);
              if (H->n_type == NT_GNU_BUILD_ID && H->n_namesz == 4 && !std::memcmp(Name, "GNU", 4))
                S->Id.assign(Desc, H->n_descsz);
              Note = Desc + aligned(H->n_descsz);
            }
          }
          return 1;
        },
        &S);
    return S.Id;
  }();
  return Id;
}

} // namespace weft::rt
