// AccessSvg.h - an access map of one buffer as an SVG heat map: which program read and which
// wrote each element, reads and writes side by side, one hue per program, elements touched by
// more than one program with a write among them (a race, unless ordered by atomics) in red.
// 1-D buffers wrap into rows; large buffers are shown in blocks of elements.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "interpreter/Profile.h"

namespace tilevm::viz {

/// The SVG document for map m of a buffer of `shape`, from a launch over `grid`.
std::string accessSvg(const interp::AccessMap& m, const std::vector<int64_t>& shape, const std::array<int64_t, 3>& grid);

/// How many elements the map shows in red (touched by several programs, one of them writing).
int64_t conflictedElements(const interp::AccessMap& m);

}  // namespace tilevm::viz
