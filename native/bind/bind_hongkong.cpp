// Bindings of the hongkong concept (filled by its port).
#include "common.hpp"

namespace tw16::bind {
void bind_hongkong(nb::module_& m) { (void)m; }
}  // namespace tw16::bind
