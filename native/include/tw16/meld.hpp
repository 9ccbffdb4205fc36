// The tiles of a meld (envs.tiles.Meld.kinds), in one place for every count the core makes: a chi of
// lowest kind k holds k, k+1, k+2; a pon three k; a kong (exposed, added or concealed) four k.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tw16/constants.hpp"

namespace tw16 {

// Add the tiles of meld (mtype MELD_CHI..MELD_ANKONG, lowest kind k) to counts: any array or View indexed by
// kind whose elements are integers (stored as the element type, as numpy would).
template <class Counts>
inline void add_meld_tiles(Counts&& counts, int64_t mtype, int64_t k) {
    using T = std::remove_reference_t<decltype(counts[k])>;
    if (mtype == py::tiles::MELD_CHI) {
        for (int64_t d = 0; d < 3; ++d) counts[k + d] = static_cast<T>(counts[k + d] + 1);
    } else {
        counts[k] = static_cast<T>(counts[k] + (mtype == py::tiles::MELD_PON ? 3 : 4));
    }
}

}  // namespace tw16
