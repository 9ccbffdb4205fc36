// Bindings of the hand concept (filled by its port).
#include "common.hpp"

namespace tw16::bind {
void bind_hand(nb::module_& m) { (void)m; }
}  // namespace tw16::bind
