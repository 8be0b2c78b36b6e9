#pragma once

// SLURM's compressed host lists, as in SLURM_JOB_NODELIST: "node07", "node[01-04,07]",
// "gpu[1-2]-ib[0-1]" (several bracket groups multiply out), "a[1-3],b07" (top-level commas
// separate entries). Ranges keep the zero padding of their first number ("[08-10]" gives 08,
// 09, 10). No LibTorch: the parser is tested on its own.

#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::bench::distributed {

struct HostList {
    std::vector<std::string> hosts; // in the order SLURM lists them
    std::string error; // empty when the list parsed
};

// At most `limit` hosts are expanded; a longer list is an error rather than a memory hog.
HostList expandNodeList(std::string_view nodeList, std::size_t limit = 65536);

} // namespace gpuplan::bench::distributed
