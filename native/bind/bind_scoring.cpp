// Bindings of the scoring concept (filled by its port).
#include "common.hpp"

namespace tw16::bind {
void bind_scoring(nb::module_& m) { (void)m; }
}  // namespace tw16::bind
