// EventQueue is a template (event_queue.h); this unit instantiates it once for a plain payload
// so that the header is compiled, with the project's warnings, in every build.
#include "fleetsim/engine/event_queue.h"

namespace fleetsim {
template class EventQueue<std::uint64_t>;
}  // namespace fleetsim
