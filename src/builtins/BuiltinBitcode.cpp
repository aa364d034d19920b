// The accessor for the embedded builtin bitcode: BuiltinBitcode.S places the
// bytes of each part and a table of [begin, end) pairs; this file turns the
// table into string_views.
#include "builtins/BuiltinBitcode.h"

#include <cstdint>

namespace {
struct PartRecord {
  const char *NameBegin, *NameEnd, *BitcodeBegin, *BitcodeEnd, *SymbolsBegin, *SymbolsEnd;
};
} // namespace

extern "C" const PartRecord weft_builtin_parts[];
extern "C" const uint64_t weft_builtin_part_count;

namespace weft::builtins {

namespace {
std::string_view view(const char *Begin, const char *End) {
  return std::string_view(Begin, static_cast<size_t>(End - Begin));
}
} // namespace

const std::vector<Part> &parts() {
  static const std::vector<Part> Parts = [] {
    std::vector<Part> P;
    for (uint64_t I = 0; I < weft_builtin_part_count; ++I) {
      const PartRecord &R = weft_builtin_parts[I];
      P.push_back({view(R.NameBegin, R.NameEnd), view(R.BitcodeBegin, R.BitcodeEnd),
                   view(R.SymbolsBegin, R.SymbolsEnd)});
    }
    return P;
  }();
  return Parts;
}

} // namespace weft::builtins
