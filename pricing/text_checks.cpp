#include "pricing/text_checks.h"

#include <cstdio>

namespace gpuplan {

namespace {

// Length of the UTF-8 sequence starting at text[at], or 0 when it is not valid UTF-8
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8SequenceLength(std::string_view text, std::size_t at)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    if (lead < 0x80)
        return 1;
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0)
            low = 0xA0; // overlong below U+0800
        else if (lead == 0xED)
            high = 0x9F; // UTF-16 surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0)
            low = 0x90; // overlong below U+10000
        else if (lead == 0xF4)
            high = 0x8F; // above U+10FFFF
    } else {
        return 0;
    }
    if (at + length > text.size())
        return 0;
    if (byte(at + 1) < low || byte(at + 1) > high)
        return 0;
    for (std::size_t i = 2; i < length; ++i)
        if (byte(at + i) < 0x80 || byte(at + i) > 0xBF)
            return 0;
    return length;
}

std::string hexByte(unsigned char b)
{
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "0x%02X", b);
    return buffer;
}

} // namespace

std::optional<LoadIssue> findBinaryJunk(
    std::string_view text, const std::string& fileName, std::string_view expected)
{
    int line = 1;
    int column = 1;
    std::size_t at = 0;
    while (at < text.size()) {
        const char c = text[at];
        if (c == '\0')
            return LoadIssue { LoadIssue::Severity::Error, fileName, line, column,
                "NUL byte: this is a binary file, not " + std::string(expected) };
        const std::size_t length = utf8SequenceLength(text, at);
        if (length == 0)
            return LoadIssue { LoadIssue::Severity::Error, fileName, line, column,
                "byte " + hexByte(static_cast<unsigned char>(c))
                    + " is not UTF-8 text: this is a binary file or another encoding, not "
                    + std::string(expected) };
        if (c == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
        at += length;
    }
    return std::nullopt;
}

} // namespace gpuplan
