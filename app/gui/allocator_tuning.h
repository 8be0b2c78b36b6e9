#pragma once

namespace gpuplan::gui {

// Keeps freed memory in the process for the next replot. Every assumption change builds a new
// Results (thousands of options with an imported catalog) and frees the last; glibc's default
// thresholds hand that memory back to the kernel each time and fault it in again on the next,
// which was 4 of the 21 ms a 500-offer replot took (docs/gui.md). Call once, first in main().
// A no-op outside glibc.
void keepFreedMemoryForReplots();

} // namespace gpuplan::gui
