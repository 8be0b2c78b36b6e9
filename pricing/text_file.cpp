#include "pricing/text_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace gpuplan {

namespace {
std::string inMiB(std::uintmax_t bytes)
{
    return std::to_string((bytes + 1024 * 1024 - 1) / (1024 * 1024)) + " MiB";
}
} // namespace

std::optional<std::string> readTextFile(const std::string& path, std::vector<LoadIssue>& issues,
    std::uintmax_t maxBytes, const std::string& limitText)
{
    auto fail = [&](const std::string& message) {
        issues.push_back({ LoadIssue::Severity::Error, path, 0, 0, message });
        return std::nullopt;
    };
    // An empty name (--prices "" from an unset variable) names no file: the message said
    // ": error: cannot open the file" with nothing before it.
    if (path.empty()) {
        issues.push_back({ LoadIssue::Severity::Error, "(no file name)", 0, 0,
            "a file was named by an empty path" });
        return std::nullopt;
    }
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    // "Does not exist" only when it does not: a link loop or a folder that may not be entered
    // is another problem, named by the system.
    if (status.type() == std::filesystem::file_type::not_found)
        return fail("cannot open the file: it does not exist");
    if (error)
        return fail("cannot open the file: " + error.message());
    // A folder that cannot be listed (a user data folder, handed on by its lister so that its
    // files are not left out unsaid) is named as such; any other is a folder given as a file.
    if (std::filesystem::is_directory(status))
        return fail(::access(path.c_str(), R_OK | X_OK) != 0
                ? "cannot read this folder's files: " + std::string(std::strerror(errno))
                : std::string("this is a folder, not a file"));
    // A device or a pipe has no size to check and may never end (/dev/zero).
    if (!std::filesystem::is_regular_file(status))
        return fail("not a regular file");
    const std::uintmax_t size = std::filesystem::file_size(path, error);
    if (error)
        return fail("cannot read the file's size: " + error.message());
    if (size > maxBytes)
        return fail("the file is " + std::to_string(size) + " bytes (" + inMiB(size)
            + "), more than the " + inMiB(maxBytes) + " " + limitText);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail("cannot open the file (no permission to read it?)");
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (in.bad() || in.gcount() != static_cast<std::streamsize>(size))
        return fail("cannot read the file (it changed or shrank while being read)");
    // A file still being written could have grown since its size was taken.
    if (in.peek() != std::ifstream::traits_type::eof())
        return fail("the file grew while being read: read it once it is complete");
    return text;
}

} // namespace gpuplan
