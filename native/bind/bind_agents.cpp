// Bindings of the agents concept (filled by its port).
#include "common.hpp"

namespace tw16::bind {
void bind_agents(nb::module_& m) { (void)m; }
}  // namespace tw16::bind
