// Bindings of the engine concept (filled by its port).
#include "common.hpp"

namespace tw16::bind {
void bind_engine(nb::module_& m) { (void)m; }
}  // namespace tw16::bind
