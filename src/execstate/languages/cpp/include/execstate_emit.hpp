// execstate_emit.hpp: checkpoint support for execstate's instrumented C++ copies (C++17 or later, g++).
//
// An instrumented copy includes this header first (before any of the program's own lines), so
// the program's macros (`#define int long long`) cannot change it. Everything lives in the
// namespace `execstate_emit`; the copy's own inserted names start with its prefix (`_es_`).
//
// Canonical JSON of a checkpoint (one line, compact separators, UTF-8 kept as is), per type:
//   bool                          true / false
//   char                          a 1-character string ("a"); a byte >= 0x80 is refused at run time
//   signed char, unsigned char,   a JSON integer (these are the small integer types: int8_t, uint8_t)
//   short ... long long, unsigned
//   __int128, unsigned __int128   a JSON integer
//   float, double, long double    the shortest text that reads back as the same value of that type,
//                                 laid out as Python's repr does (1.0, 0.1, 1e-05, 1e+16, -0.0);
//                                 NaN and infinities are refused at run time
//   std::string                   a JSON string (escaped as Python's json.dumps with
//                                 ensure_ascii=False); bytes that are not UTF-8 are refused at run time
//   std::vector, std::array,      a JSON list of the elements (vector<bool> too)
//   std::deque, std::list, T[N]
//   std::set, std::multiset       a JSON list in the set's order
//   std::pair, std::tuple         a JSON list
//   std::optional                 its value's JSON, or null when empty (Python's None)
//   std::map<std::string, V>      a JSON object in the map's order
//   any other std::map,           a JSON list of [key, value] lists in the map's order
//   std::multimap
// Anything else (unordered containers, pointers, char arrays, string_view, enums,
// classes, stacks/queues, ...) is refused AT COMPILE TIME: the instrumented copy asserts
//     static_assert(execstate_emit::serializable<decltype(NAME)>, "execstate: cannot serialize variable 'NAME'");
// so g++ prints "error: static assertion failed: execstate: cannot serialize variable 'NAME'"
// followed by a note "... [with T = <the variable's type>] evaluated to 'false'".
// A text shared by several copies of a loop (languages/cpp/universal.py) asserts
// shown_or_refused<decltype(NAME)> instead, true for every type, so it compiles whatever its
// candidates are, and refuses such a variable AT RUN TIME when its checkpoint prints it (refuse_type).
// A value refused at run time prints one line to stderr,
//     execstate: cannot serialize variable 'NAME': <why>
// and the program ends with exit status 3 (nothing is written to stdout).
//
// Scalar slots (the `observe` mode, for the state metrics): bool, char, every integer and
// floating type, and std::string count 1 (a string counts 1 whatever its length); a container,
// pair or tuple counts the slots of its elements, recursively (a map: keys and values); an
// empty container counts 0.
//
// A trace copy (the loop-trace arm) prints one line to stdout: a JSON list of the checkpoint
// objects above, the states at the top of the first iterations of one execution of the loop.
//
// Universal builds (languages/cpp/universal.py): a copy whose selected iteration and guard read
//     execstate_emit::checkpoint_k()        the decimal EXECSTATE_CHECKPOINT_K
//     execstate_emit::checkpoint_active()   EXECSTATE_CHECKPOINT_ACTIVE (1 or 0)
//     execstate_emit::emit_chosen(...)      emit() of the pairs EXECSTATE_CHECKPOINT_VARS places
//     execstate_emit::state_json_chosen(...) state_json() of those pairs
// A build serving every mode (instrument.every_mode_cpp) also reads
//     execstate_emit::checkpoint_mode()     EXECSTATE_CHECKPOINT_MODE: 1 inside, 2 post, 3 trace, 4 observe, 5 count
//     execstate_emit::checkpoint_on(), checkpoint_k_of(m), checkpoint_steps() (EXECSTATE_CHECKPOINT_STEPS),
//     observe_chosen(...), loop_enter_of(), loop_exit_of(...), report_count_of(...)  (each mode's code acts in its mode only)
// instead of the constants (and the projection) the task shows is compiled once and serves every
// k and every projection drawn from its candidates; a missing or malformed variable prints
// "execstate: ..." to stderr and ends the program with exit status 3.
//
// Markers, all written with write(2):
//   count mode, at exit, to stderr:    "\n__execstate_iterations__=K\n"
//   count mode for every loop at once, at exit, to stderr, with EXECSTATE_COUNT_ALL set, for each loop i (0-based):
//                                      "\n__execstate_loop_iterations__=i:K\n"
//                                     or, with EXECSTATE_COUNT_LOOP=i, count mode's marker of loop i
//   observe mode, to stderr, buffered and written at exit (and whenever 64 KiB are pending):
//     "\n__execstate_run__=R\n"        the following iterations belong to execution R of the
//                                     selected loop (numbered from 1 in order of entry); written
//                                     whenever the execution observed changes
//     "\n__execstate_slots__=N\n"      one iteration started with N slots in the projection
//     "\n__execstate_slots__=N*C\n"    C consecutive iterations started with N slots each
//     "\n__execstate_loop_exit__=R\n"  execution R of the loop ended by its normal exit or a
//                                     break (not by return, goto, an exception or exit())

#ifndef EXECSTATE_EMIT_HPP
#define EXECSTATE_EMIT_HPP

#include <array>
#include <cerrno>
#include <charconv>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace execstate_emit {

// ---------------------------------------------------------------- output channels

inline void write_all(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        ssize_t done = ::write(fd, data, size);
        if (done < 0) {
            if (errno == EINTR) continue;
            return;
        }
        data += done;
        size -= static_cast<std::size_t>(done);
    }
}

// The real standard output, saved before the program's own output is silenced; -1 if not silenced.
inline int& real_stdout() {
    static int fd = -1;
    return fd;
}

// Point fd 1 at /dev/null (printf, puts, std::cout and write(1, ...) all go there) and keep the
// real stdout on a private descriptor for the checkpoint's line. Does nothing when `active` is
// false (the preservation variant) or when already done.
inline bool silence(bool active) {
    if (!active || real_stdout() != -1) return active;
    std::fflush(stdout);
    int saved = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
    int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved < 0 || null < 0 || ::dup2(null, 1) < 0) {
        static const char msg[] = "execstate: cannot silence the program's output\n";
        write_all(2, msg, sizeof msg - 1);
        ::_exit(3);
    }
    ::close(null);
    real_stdout() = saved;
    return true;
}

[[noreturn]] inline void refuse(const char* name, const char* why) {
    std::string msg = "execstate: cannot serialize variable '";
    msg += name;
    msg += "': ";
    msg += why;
    msg += '\n';
    write_all(2, msg.data(), msg.size());
    ::_exit(3);
}

// ---------------------------------------------------------------- the checkpoint chosen at run time

// The non-negative decimal value of the environment variable `name`; ends the program if it has none.
inline long long checkpoint_setting(const char* name) {
    const char* text = std::getenv(name);
    long long value = 0;
    bool digits = text != nullptr && *text != '\0';
    for (const char* c = text; digits && *c != '\0'; ++c) {
        digits = *c >= '0' && *c <= '9' && value < 100000000000000000LL;
        value = value * 10 + (*c - '0');
    }
    if (!digits) {
        std::string msg = "execstate: the universal build needs ";
        msg += name;
        msg += " (a decimal number) in its environment\n";
        write_all(2, msg.data(), msg.size());
        ::_exit(3);
    }
    return value;
}

// The selected iteration k of a universal build.
inline long long checkpoint_k() {
    static const long long k = checkpoint_setting("EXECSTATE_CHECKPOINT_K");
    return k;
}

// Whether a universal build's checkpoint is active (0: the preservation variant).
inline bool checkpoint_active() {
    static const bool active = checkpoint_setting("EXECSTATE_CHECKPOINT_ACTIVE") != 0;
    return active;
}

// The mode of a build that serves every mode (instrument.every_mode_cpp): EXECSTATE_CHECKPOINT_MODE,
// 1 inside, 2 post, 3 trace, 4 observe, 5 count. Each mode's inserted code runs only in its mode.
inline long long checkpoint_mode() {
    static const long long mode = checkpoint_setting("EXECSTATE_CHECKPOINT_MODE");
    return mode;
}

// The guard of such a build: the checkpoint's guard (EXECSTATE_CHECKPOINT_ACTIVE) in the checkpoint
// modes, false in observe and count mode (which neither silence nor print a checkpoint).
inline bool checkpoint_on() { return checkpoint_mode() != 4 && checkpoint_mode() != 5 && checkpoint_active(); }

// The selected iteration k of `mode`'s code in such a build: 0 (never reached) in another mode.
inline long long checkpoint_k_of(long long mode) { return checkpoint_mode() == mode ? checkpoint_k() : 0; }

// The states a trace keeps (EXECSTATE_CHECKPOINT_STEPS) in trace mode; 0 (none) in another mode.
inline std::size_t checkpoint_steps() {
    if (checkpoint_mode() != 3) return 0;
    static const long long steps = checkpoint_setting("EXECSTATE_CHECKPOINT_STEPS");
    return static_cast<std::size_t>(steps);
}

// ---------------------------------------------------------------- type classification

template <class T>
inline constexpr bool is_char_like = std::is_same_v<T, char> || std::is_same_v<T, wchar_t> ||
                                     std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>
#ifdef __cpp_char8_t
                                     || std::is_same_v<T, char8_t>
#endif
    ;

template <class T>
inline constexpr bool is_int128 =
#ifdef __SIZEOF_INT128__
    std::is_same_v<T, __int128> || std::is_same_v<T, unsigned __int128>;
#else
    false;
#endif

template <class T>
inline constexpr bool is_integer =
    (std::is_integral_v<T> && !std::is_same_v<T, bool> && !is_char_like<T>) || is_int128<T>;

template <class T>
inline constexpr bool is_floating = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                    std::is_same_v<T, long double>;

// std::remove_cvref_t, which C++17 lacks.
template <class T>
using bare = std::remove_cv_t<std::remove_reference_t<T>>;

// The second parameter lets a partial specialization select a family of types (C++17 has no requires).
template <class T, class = void>
struct traits {
    static constexpr bool ok = false;
};

template <class T>
inline constexpr bool ok_v = traits<std::remove_cv_t<T>>::ok;

// The compile-time test the instrumented copy asserts for every projected variable.
// A concept where the language has them: g++ then names the refused type in its diagnostic
// ("[with T = ...]"), which the builder quotes; under C++17 the refusal names only the variable.
#if defined(__cpp_concepts) && __cpp_concepts >= 201907L
template <class T>
concept serializable = ok_v<bare<T>>;
#else
template <class T>
inline constexpr bool serializable = ok_v<bare<T>>;
#endif

// What a build shared by several copies asserts instead (languages/cpp/universal.py: one text for every
// candidate of a loop): true for every type, so the shared text compiles whichever candidates the header
// cannot serialize, and a copy that shows one of them is refused when its checkpoint prints it, at run time
// (refuse_type), as the copy compiled alone is refused by its static assertion.
template <class T>
inline constexpr bool shown_or_refused = true;

// The type T as the compiler names it ("std::queue<int>"), read from this function's own signature:
// g++ writes "... [with T = std::queue<int>; ...]", clang "... [T = std::queue<int>]".
template <class T>
std::string type_name() {
    std::string_view signature = __PRETTY_FUNCTION__;
    std::size_t at = std::string_view::npos;
    for (std::string_view start : {std::string_view("[with T = "), std::string_view("[T = ")}) {
        at = signature.find(start);
        if (at != std::string_view::npos) {
            at += start.size();
            break;
        }
    }
    if (at == std::string_view::npos || signature.back() != ']') return "this type";
    std::string_view name = signature.substr(at, signature.size() - 1 - at);
    return std::string(name.substr(0, name.find(';')));  // g++ may add the typedefs the signature uses
}

// The run-time refusal of a value of a type the header cannot serialize, in a shared build.
template <class T>
[[noreturn]] void refuse_type(const char* name) {
    std::string why = "its type " + type_name<T>() + " is not one the header serializes (execstate_emit.hpp)";
    refuse(name, why.c_str());
}

// Slots of every value of T when that number is fixed (scalars, pairs/tuples/arrays of them), else -1.
template <class T>
constexpr long long fixed_slots() {
    if constexpr (ok_v<T>) {
        return traits<std::remove_cv_t<T>>::fixed;
    } else {
        return -1;
    }
}

template <class T>
void json(std::string& out, const T& value, const char* name) {
    traits<std::remove_cv_t<T>>::json(out, value, name);
}

template <class T>
long long slots(const T& value) {
    if constexpr (fixed_slots<T>() >= 0) {
        return fixed_slots<T>();
    } else {
        return traits<std::remove_cv_t<T>>::slots(value);
    }
}

// ---------------------------------------------------------------- scalars

struct scalar {
    static constexpr bool ok = true;
    static constexpr long long fixed = 1;
};

template <>
struct traits<bool> : scalar {
    static void json(std::string& out, bool value, const char*) { out += value ? "true" : "false"; }
};

// A JSON string body for UTF-8 text; false if the bytes are not well-formed UTF-8.
inline bool append_string(std::string& out, const char* data, std::size_t size) {
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (std::size_t i = 0; i < size;) {
        unsigned char c = static_cast<unsigned char>(data[i]);
        if (c < 0x80) {
            switch (c) {
                case '"': out += "\\\""; break;
                case '\\': out += "\\\\"; break;
                case '\n': out += "\\n"; break;
                case '\r': out += "\\r"; break;
                case '\t': out += "\\t"; break;
                case '\b': out += "\\b"; break;
                case '\f': out += "\\f"; break;
                default:
                    if (c < 0x20) {
                        out += "\\u00";
                        out += hex[c >> 4];
                        out += hex[c & 15];
                    } else {
                        out += static_cast<char>(c);
                    }
            }
            ++i;
            continue;
        }
        // Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
        std::size_t n;
        unsigned char lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        } else {
            return false;
        }
        if (i + n > size) return false;
        for (std::size_t j = 1; j < n; ++j) {
            unsigned char d = static_cast<unsigned char>(data[i + j]);
            if (d < (j == 1 ? lo : 0x80) || d > (j == 1 ? hi : 0xBF)) return false;
        }
        out.append(data + i, n);
        i += n;
    }
    out += '"';
    return true;
}

template <>
struct traits<char> : scalar {
    static void json(std::string& out, char value, const char* name) {
        if (!append_string(out, &value, 1)) refuse(name, "a char holding a byte >= 0x80 is not a UTF-8 character");
    }
};

template <>
struct traits<std::string> {
    static constexpr bool ok = true;
    static constexpr long long fixed = 1;
    static void json(std::string& out, const std::string& value, const char* name) {
        if (!append_string(out, value.data(), value.size())) refuse(name, "a string that is not UTF-8 text");
    }
};

template <class T>
struct traits<T, std::enable_if_t<is_integer<T>>> : scalar {
    static void json(std::string& out, T value, const char*) {
        if constexpr (is_int128<T>) {
            char buf[48];
            char* end = buf + sizeof buf;
            char* p = end;
            bool negative = false;
            if constexpr (std::is_same_v<T, __int128>) negative = value < 0;
            // Work in the unsigned type so the most negative value has a magnitude.
            unsigned __int128 magnitude =
                negative ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(value)
                         : static_cast<unsigned __int128>(value);
            do {
                *--p = static_cast<char>('0' + static_cast<int>(magnitude % 10));
                magnitude /= 10;
            } while (magnitude != 0);
            if (negative) *--p = '-';
            out.append(p, end);
        } else {
            char buf[32];
            auto res = std::to_chars(buf, buf + sizeof buf, value);
            out.append(buf, res.ptr);
        }
    }
};

// Python's float repr: the shortest digits that read back as the same value (of type T), in
// positional form when the decimal exponent is in [-4, 16), else as d[.ddd]e+XX.
template <class T>
void append_float(std::string& out, T value, const char* name) {
    if (value != value || value - value != value - value) refuse(name, "a NaN or infinite float is not JSON");
    char buf[128];
    auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    std::string sci(buf, res.ptr);  // [-]d[.ddd]e(+|-)XX
    std::size_t e = sci.find('e');
    std::string mantissa = sci.substr(0, e);
    int exponent = std::atoi(sci.c_str() + e + 1);
    bool negative = mantissa[0] == '-';
    std::string digits;
    for (char c : mantissa)
        if (c >= '0' && c <= '9') digits += c;
    if (negative) out += '-';
    if (exponent >= -4 && exponent < 16) {
        if (exponent >= 0) {
            std::size_t whole = static_cast<std::size_t>(exponent) + 1;
            if (digits.size() <= whole) {
                out += digits;
                out.append(whole - digits.size(), '0');
                out += ".0";
            } else {
                out.append(digits, 0, whole);
                out += '.';
                out.append(digits, whole, std::string::npos);
            }
        } else {
            out += "0.";
            out.append(static_cast<std::size_t>(-exponent - 1), '0');
            out += digits;
        }
    } else {
        out += digits[0];
        if (digits.size() > 1) {
            out += '.';
            out.append(digits, 1, std::string::npos);
        }
        out += 'e';
        out += exponent < 0 ? '-' : '+';
        int magnitude = exponent < 0 ? -exponent : exponent;
        if (magnitude < 10) out += '0';
        out += std::to_string(magnitude);
    }
}

template <class T>
struct traits<T, std::enable_if_t<is_floating<T>>> : scalar {
    static void json(std::string& out, T value, const char* name) { append_float(out, value, name); }
};

// ---------------------------------------------------------------- compounds

template <class Range>
void append_list(std::string& out, const Range& range, const char* name) {
    out += '[';
    bool first = true;
    for (const auto& item : range) {
        if (!first) out += ',';
        first = false;
        json(out, item, name);
    }
    out += ']';
}

template <class Range>
long long range_slots(const Range& range) {
    using Item = bare<decltype(*std::begin(range))>;
    if constexpr (fixed_slots<Item>() >= 0) {
        return static_cast<long long>(std::size(range)) * fixed_slots<Item>();
    } else {
        long long total = 0;
        for (const auto& item : range) total += slots(item);
        return total;
    }
}

// Sequences and sets: a JSON list; the slots of their elements.
template <class T>
struct sequence {
    static constexpr bool ok = ok_v<T>;
    static constexpr long long fixed = -1;
    template <class Range>
    static void json(std::string& out, const Range& range, const char* name) {
        append_list(out, range, name);
    }
    template <class Range>
    static long long slots(const Range& range) {
        return range_slots(range);
    }
};

template <class T, class A>
struct traits<std::vector<T, A>> : sequence<T> {};
template <class A>
struct traits<std::vector<bool, A>> : sequence<bool> {
    static void json(std::string& out, const std::vector<bool, A>& range, const char*) {
        out += '[';
        for (std::size_t i = 0; i < range.size(); ++i) {
            if (i) out += ',';
            out += range[i] ? "true" : "false";
        }
        out += ']';
    }
    static long long slots(const std::vector<bool, A>& range) { return static_cast<long long>(range.size()); }
};
template <class T, class A>
struct traits<std::deque<T, A>> : sequence<T> {};
template <class T, class A>
struct traits<std::list<T, A>> : sequence<T> {};
template <class T, class C, class A>
struct traits<std::set<T, C, A>> : sequence<T> {};
template <class T, class C, class A>
struct traits<std::multiset<T, C, A>> : sequence<T> {};

// Fixed-size arrays: their slot count is fixed when their element's is.
template <class T, std::size_t N>
struct fixed_array : sequence<T> {
    static constexpr long long fixed = fixed_slots<T>() >= 0 ? fixed_slots<T>() * static_cast<long long>(N) : -1;
};
template <class T, std::size_t N>
struct traits<std::array<T, N>> : fixed_array<T, N> {};
// Built-in arrays, except arrays of characters (a C string or a buffer: refused).
template <class T, std::size_t N>
struct traits<T[N], std::enable_if_t<!is_char_like<std::remove_cv_t<T>>>> : fixed_array<T, N> {};

template <class A, class B>
struct traits<std::pair<A, B>> {
    static constexpr bool ok = ok_v<A> && ok_v<B>;
    static constexpr long long fixed =
        fixed_slots<A>() >= 0 && fixed_slots<B>() >= 0 ? fixed_slots<A>() + fixed_slots<B>() : -1;
    static void json(std::string& out, const std::pair<A, B>& value, const char* name) {
        out += '[';
        execstate_emit::json(out, value.first, name);
        out += ',';
        execstate_emit::json(out, value.second, name);
        out += ']';
    }
    static long long slots(const std::pair<A, B>& value) {
        return execstate_emit::slots(value.first) + execstate_emit::slots(value.second);
    }
};

template <class... Ts>
struct traits<std::tuple<Ts...>> {
    static constexpr bool ok = (true && ... && ok_v<Ts>);
    static constexpr long long fixed = ((true && ... && (fixed_slots<Ts>() >= 0)) ? (0 + ... + fixed_slots<Ts>()) : -1);
    static void json(std::string& out, const std::tuple<Ts...>& value, const char* name) {
        out += '[';
        std::apply(
            [&](const auto&... items) {
                bool first = true;
                ((out += first ? "" : ",", first = false, execstate_emit::json(out, items, name)), ...);
            },
            value);
        out += ']';
    }
    static long long slots(const std::tuple<Ts...>& value) {
        return std::apply([](const auto&... items) { return (0LL + ... + execstate_emit::slots(items)); }, value);
    }
};

// Maps: an object when the key is std::string, else a list of [key, value] lists (multimap: always).
template <class K, class V, bool AsObject>
struct mapping {
    static constexpr bool ok = ok_v<K> && ok_v<V>;
    static constexpr long long fixed = -1;
    template <class Map>
    static void json(std::string& out, const Map& map, const char* name) {
        out += AsObject ? '{' : '[';
        bool first = true;
        for (const auto& [key, value] : map) {
            if (!first) out += ',';
            first = false;
            if constexpr (AsObject) {
                execstate_emit::json(out, key, name);
                out += ':';
                execstate_emit::json(out, value, name);
            } else {
                out += '[';
                execstate_emit::json(out, key, name);
                out += ',';
                execstate_emit::json(out, value, name);
                out += ']';
            }
        }
        out += AsObject ? '}' : ']';
    }
    template <class Map>
    static long long slots(const Map& map) {
        if constexpr (fixed_slots<K>() >= 0 && fixed_slots<V>() >= 0) {
            return static_cast<long long>(map.size()) * (fixed_slots<K>() + fixed_slots<V>());
        } else {
            long long total = 0;
            for (const auto& [key, value] : map) total += execstate_emit::slots(key) + execstate_emit::slots(value);
            return total;
        }
    }
};

template <class K, class V, class C, class A>
struct traits<std::map<K, V, C, A>> : mapping<K, V, std::is_same_v<K, std::string>> {};
template <class K, class V, class C, class A>
struct traits<std::multimap<K, V, C, A>> : mapping<K, V, false> {};

// std::optional: its value's JSON, or null when it is empty (Python's None); slots: its value's, or 1
// when empty (None counts 1).
template <class T>
struct traits<std::optional<T>> {
    static constexpr bool ok = ok_v<T>;
    static constexpr long long fixed = fixed_slots<T>() == 1 ? 1 : -1;
    static void json(std::string& out, const std::optional<T>& value, const char* name) {
        if (value) {
            execstate_emit::json(out, *value, name);
        } else {
            out += "null";
        }
    }
    static long long slots(const std::optional<T>& value) { return value ? execstate_emit::slots(*value) : 1; }
};

// ---------------------------------------------------------------- checkpoint, trace, count, observe

inline void fields(std::string&, bool) {}

template <class T, class... Rest>
void fields(std::string& out, bool first, const char* name, const T& value, const Rest&... rest) {
    if (!first) out += ',';
    out += '"';
    out += name;
    out += "\":";
    if constexpr (serializable<T>) {
        execstate_emit::json(out, value, name);
    } else {
        refuse_type<T>(name);  // a shared build (a copy of its own has failed its static_assert)
    }
    fields(out, false, rest...);
}

// state_json("a", a, "b", b, ...): the projection as the canonical JSON object {"a":...,"b":...}
// (no newline): exactly the line emit() prints. A value refused at run time ends the program (refuse).
template <class... Args>
std::string state_json(const Args&... args) {
    std::string out = "{";
    fields(out, true, args...);
    out += '}';
    return out;
}

// A universal build's projection chosen at run time (languages/cpp/universal.py): the copy passes
// every candidate ("a", a, "b", b, "c", c) and EXECSTATE_CHECKPOINT_VARS names the 0-based places of
// those printed, in order ("2,0"); only those are serialized. A malformed list or a place past the
// candidates prints "execstate: ..." to stderr and ends the program with exit status 3.
inline const std::vector<int>& checkpoint_vars(int candidates) {
    static const std::vector<int> chosen = [] {
        const char* text = std::getenv("EXECSTATE_CHECKPOINT_VARS");
        std::vector<int> places;
        bool ok = text != nullptr && *text != '\0';
        int value = -1;
        for (const char* c = text; ok; ++c) {
            if (*c >= '0' && *c <= '9' && value < 100000) {
                value = (value < 0 ? 0 : value * 10) + (*c - '0');
            } else if ((*c == ',' || *c == '\0') && value >= 0) {
                places.push_back(value);
                value = -1;
                if (*c == '\0') break;
            } else {
                ok = false;
            }
        }
        if (!ok) {
            static const char msg[] =
                "execstate: the universal build needs EXECSTATE_CHECKPOINT_VARS (places such as 2,0) in its "
                "environment\n";
            write_all(2, msg, sizeof msg - 1);
            ::_exit(3);
        }
        return places;
    }();
    for (int place : chosen) {
        if (place >= candidates) {
            static const char msg[] = "execstate: EXECSTATE_CHECKPOINT_VARS names a place past the candidates\n";
            write_all(2, msg, sizeof msg - 1);
            ::_exit(3);
        }
    }
    return chosen;
}

inline void field_at(std::string&, bool, int) {}

// The field of the place-th ("name", value) pair, as fields() writes it.
template <class T, class... Rest>
void field_at(std::string& out, bool first, int place, const char* name, const T& value, const Rest&... rest) {
    if (place == 0) {
        fields(out, first, name, value);
    } else {
        field_at(out, first, place - 1, rest...);
    }
}

// state_json of the chosen pairs (checkpoint_vars), in the chosen order: the bytes state_json
// writes when given exactly those pairs in that order.
template <class... Args>
std::string state_json_chosen(const Args&... args) {
    std::string out = "{";
    bool first = true;
    for (int place : checkpoint_vars(static_cast<int>(sizeof...(Args) / 2))) {
        field_at(out, first, place, args...);
        first = false;
    }
    out += '}';
    return out;
}

// `line` plus a newline on the real stdout, then std::exit(0) (so a --coverage build writes its
// counts; the program's output stays silenced meanwhile).
[[noreturn]] inline void finish(std::string line) {
    line += '\n';
    int fd = real_stdout() != -1 ? real_stdout() : 1;
    write_all(fd, line.data(), line.size());
    std::exit(0);
}

// emit("a", a, "b", b, ...): the inside and post checkpoints: one line {"a":...,"b":...}, then exit.
template <class... Args>
[[noreturn]] void emit(const Args&... args) {
    finish(state_json(args...));
}

// emit() of the chosen pairs (a universal build's projection chosen at run time).
template <class... Args>
[[noreturn]] void emit_chosen(const Args&... args) {
    finish(state_json_chosen(args...));
}

// trace mode, at the top of iteration k: the states this execution of the loop kept (state_json of
// the projection at the top of each of its first iterations) as one line [{...},{...},...], then exit.
[[noreturn]] inline void emit_trace(const std::vector<std::string>& steps) {
    std::string line = "[";
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (i) line += ',';
        line += steps[i];
    }
    line += ']';
    finish(std::move(line));
}

// count mode: the prelude registers this with std::atexit.
inline void report_count(long long count) {
    std::string line = "\n__execstate_iterations__=" + std::to_string(count) + "\n";
    write_all(2, line.data(), line.size());
}

// count mode of a build serving every mode: report_count in count mode, nothing in another mode.
inline void report_count_of(long long count) {
    if (checkpoint_mode() == 5) report_count(count);
}

// count mode for every loop at once (instrument.count_all_cpp): the prelude registers this with
// std::atexit; loop i's K as "\n__execstate_loop_iterations__=i:K\n", in order of i. With
// EXECSTATE_COUNT_LOOP=i in the environment (the build standing for loop i's own count copy) it
// writes what that copy writes instead, report_count of loop i's K; with neither that nor EXECSTATE_COUNT_ALL
// it writes nothing (the build then stands for the clean program: universal.clean_stand_in).
inline void report_loop_counts(const long long* counts, int n) {
    if (std::getenv("EXECSTATE_COUNT_LOOP") != nullptr) {
        long long i = checkpoint_setting("EXECSTATE_COUNT_LOOP");
        if (i >= n) {
            static const char msg[] = "execstate: EXECSTATE_COUNT_LOOP names a loop past the counted ones\n";
            write_all(2, msg, sizeof msg - 1);
            ::_exit(3);
        }
        report_count(counts[i]);
        return;
    }
    if (std::getenv("EXECSTATE_COUNT_ALL") == nullptr) return;  // the build runs as the clean program
    std::string lines;
    for (int i = 0; i < n; ++i)
        lines += "\n__execstate_loop_iterations__=" + std::to_string(i) + ":" + std::to_string(counts[i]) + "\n";
    write_all(2, lines.data(), lines.size());
}

struct observations {
    std::string pending;
    long long runs = 0;    // executions of the selected loop entered so far
    long long run = 0;     // the execution the last "run" record announced
    long long slots = -1;  // the current record: `repeat` iterations of `slots` slots each
    long long repeat = 0;

    void close_record() {
        if (repeat == 0) return;
        pending += "\n__execstate_slots__=" + std::to_string(slots);
        if (repeat > 1) pending += "*" + std::to_string(repeat);
        pending += '\n';
        repeat = 0;
    }
    void flush() {
        write_all(2, pending.data(), pending.size());
        pending.clear();
    }
};

inline void flush_observations_at_exit();

inline observations& observed() {
    static observations state;
    static const int registered = std::atexit(flush_observations_at_exit);
    (void)registered;
    return state;
}

inline void flush_observations_at_exit() {
    observations& state = observed();
    state.close_record();
    state.flush();
}

template <class T>
long long slots_or_refused(const T& value) {
    if constexpr (serializable<T>) {
        return execstate_emit::slots(value);
    } else {
        refuse_type<T>("an observed variable");  // a shared build (a copy of its own has failed its static_assert)
    }
}

// observe mode, just before the selected loop statement: the number of this execution of it.
inline long long loop_enter() { return ++observed().runs; }

inline void observe_slots(long long run, long long n);

// observe mode, at the top of every iteration of the selected loop.
template <class... Values>
void observe(long long run, const Values&... values) {
    observe_slots(run, (0LL + ... + slots_or_refused(values)));
}

// A build serving every mode (checkpoint_mode): observe() of the values EXECSTATE_CHECKPOINT_VARS places,
// in observe mode only. Only the chosen values are walked (a candidate not chosen may be a large
// container: walking it at every iteration would cost its size each time), each as often as it is placed.
template <class... Values>
void observe_chosen(long long run, const Values&... values) {
    if (checkpoint_mode() != 4) return;
    static const std::vector<int> times = [] {
        std::vector<int> placed(sizeof...(Values), 0);
        for (int place : checkpoint_vars(static_cast<int>(sizeof...(Values)))) ++placed[place];
        return placed;
    }();
    long long n = 0;
    int at = 0;
    ((n += times[at] != 0 ? times[at] * slots_or_refused(values) : 0, ++at), ...);
    observe_slots(run, n);
}

// loop_enter() and loop_exit() of a build serving every mode: in observe mode only.
inline long long loop_enter_of() { return checkpoint_mode() == 4 ? loop_enter() : 0; }

// observe mode: one iteration of execution `run` of the loop started with `n` slots.
inline void observe_slots(long long run, long long n) {
    observations& state = observed();
    if (state.repeat > 0 && state.run == run && state.slots == n) {
        ++state.repeat;
        return;
    }
    state.close_record();
    if (state.run != run) {
        state.pending += "\n__execstate_run__=" + std::to_string(run) + "\n";
        state.run = run;
    }
    if (state.pending.size() >= 65536) state.flush();
    state.slots = n;
    state.repeat = 1;
}

// observe mode, right after the selected loop (reached by its normal exit or a break).
inline void loop_exit(long long run) {
    observations& state = observed();
    state.close_record();
    state.pending += "\n__execstate_loop_exit__=" + std::to_string(run) + "\n";
    if (state.pending.size() >= 65536) state.flush();
}

inline void loop_exit_of(long long run) {
    if (checkpoint_mode() == 4) loop_exit(run);
}

}  // namespace execstate_emit

#endif  // EXECSTATE_EMIT_HPP
