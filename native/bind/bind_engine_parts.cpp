// Bindings of the engine_parts concept (filled by its port).
#include "common.hpp"

namespace tw16::bind {
void bind_engine_parts(nb::module_& m) { (void)m; }
}  // namespace tw16::bind
