// Bindings of the obs concept (filled by its port).
#include "common.hpp"

namespace tw16::bind {
void bind_obs(nb::module_& m) { (void)m; }
}  // namespace tw16::bind
