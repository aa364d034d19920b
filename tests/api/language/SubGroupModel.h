// The host's model of Weft's sub-groups, shared by the sub-group tests
// (SubGroupTest.cpp, SubGroupExtensionsTest.cpp): a work-group's
// work-items in linear-id order, Width at a time, the last sub-group
// perhaps smaller (src/builtins/SubGroups.cl); the NDRanges the tests run
// and their inputs.
#pragma once

#include <CL/cl.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace weft::test::subgroups {

/// An NDRange: work_dim, global and local sizes.
struct Range {
  cl_uint Dims;
  std::array<size_t, 3> Global;
  std::array<size_t, 3> Local;
};

/// One work-item of a Range as the sub-group functions see it.
struct Item {
  size_t Global;     ///< global linear id
  size_t Group;      ///< linear work-group index
  uint32_t SubGroup; ///< get_sub_group_id
  uint32_t Local;    ///< get_sub_group_local_id
  uint32_t Size;     ///< get_sub_group_size
  uint32_t MaxSize;  ///< get_max_sub_group_size
  uint32_t Count;    ///< get_num_sub_groups
  uint32_t EnqCount; ///< get_enqueued_num_sub_groups
};

/// Every work-item of R, in global linear id order, with sub-groups of
/// Width work-items.
inline std::vector<Item> enumerate(const Range &R, size_t Width) {
  std::array<size_t, 3> G{1, 1, 1}, L{1, 1, 1};
  for (cl_uint D = 0; D < R.Dims; ++D) {
    G[D] = R.Global[D];
    L[D] = R.Local[D];
  }
  std::array<size_t, 3> Groups;
  for (int D = 0; D < 3; ++D)
    Groups[D] = (G[D] + L[D] - 1) / L[D];
  std::vector<Item> Items;
  for (size_t Z = 0; Z < G[2]; ++Z)
    for (size_t Y = 0; Y < G[1]; ++Y)
      for (size_t X = 0; X < G[0]; ++X) {
        std::array<size_t, 3> Id{X, Y, Z}, Gr, Lid, Size;
        for (int D = 0; D < 3; ++D) {
          Gr[D] = Id[D] / L[D];
          Lid[D] = Id[D] % L[D];
          Size[D] = std::min(L[D], G[D] - Gr[D] * L[D]);
        }
        const size_t Linear = (Lid[2] * Size[1] + Lid[1]) * Size[0] + Lid[0];
        const size_t GroupItems = Size[0] * Size[1] * Size[2], Enqueued = L[0] * L[1] * L[2];
        Item I;
        I.Global = (Z * G[1] + Y) * G[0] + X;
        I.Group = (Gr[2] * Groups[1] + Gr[1]) * Groups[0] + Gr[0];
        I.SubGroup = uint32_t(Linear / Width);
        I.Local = uint32_t(Linear % Width);
        I.Size = uint32_t(std::min(Width, GroupItems - I.SubGroup * Width));
        I.MaxSize = uint32_t(std::min(Width, Enqueued));
        I.Count = uint32_t((GroupItems + Width - 1) / Width);
        I.EnqCount = uint32_t((Enqueued + Width - 1) / Width);
        Items.push_back(I);
      }
  return Items;
}

/// The global linear ids of each sub-group's work-items (by work-group and
/// sub-group), in sub-group local id order.
inline std::map<std::pair<size_t, uint32_t>, std::vector<size_t>>
subGroupsOf(const std::vector<Item> &Items) {
  std::map<std::pair<size_t, uint32_t>, std::vector<size_t>> Groups;
  for (const Item &I : Items) {
    auto &V = Groups[{I.Group, I.SubGroup}];
    if (V.size() <= I.Local)
      V.resize(I.Local + 1);
    V[I.Local] = I.Global;
  }
  return Groups;
}

inline const Range Ranges[] = {
    {1, {100, 1, 1}, {32, 1, 1}},  // last group of 4
    {1, {256, 1, 1}, {128, 1, 1}}, // many sub-groups
    {1, {5, 1, 1}, {5, 1, 1}},     // a group smaller than a sub-group
    {2, {10, 6, 1}, {4, 4, 1}},    // smaller edge groups in x and y
    {3, {7, 4, 3}, {3, 2, 2}},     // and in x in 3-D
    {3, {12, 8, 4}, {6, 4, 2}},    // sub-groups across rows of 6
};

inline std::string describe(const Range &R) {
  std::string S = std::to_string(R.Dims) + "-D global";
  for (cl_uint D = 0; D < R.Dims; ++D)
    S += " " + std::to_string(R.Global[D]);
  S += " local";
  for (cl_uint D = 0; D < R.Dims; ++D)
    S += " " + std::to_string(R.Local[D]);
  return S;
}

/// Input value I of type T: small integers of both signs (large ones for
/// the 64-bit types), exact in float and double whatever the order.
template <typename T> T inputValue(size_t I) {
  long long V = (long long)((I * 7919 + 13) % 23) - 11;
  if constexpr (sizeof(T) == 8 && std::is_integral_v<T>)
    V = V * (1ll << 40) + 5;
  if constexpr (std::is_unsigned_v<T>)
    return T(V < 0 ? -V : V) + 3;
  return T(V);
}


} // namespace weft::test::subgroups
