// Standard output and error that never show a secret: each line (or progress line ending in
// '\r') passes through scrub_secrets before it reaches the terminal or a pipe.
#pragma once

#include <ostream>

namespace ascendopt {

// Routes std::cout and std::cerr through scrubbing buffers for the rest of the process.
// Idempotent. Output is held until a line ends or the stream is flushed, so a secret written
// in pieces is still caught; std::endl and the process's normal exit flush as before.
void scrub_standard_streams();

}  // namespace ascendopt
