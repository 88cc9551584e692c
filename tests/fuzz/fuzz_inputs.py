"""The fuzz test's inputs, made from the types of Ladder's files rather than from saved files.

A JSON document is walked key by key (`json_paths`); at each key a hostile value of one kind is put in its place
(`put_value`): nesting 10^5 deep, a string of 10^6 characters, a wrong type, a huge number, bytes that are not
UTF-8. TOML costs files get the same kinds where TOML can hold them. Databases and journals are damaged byte by
byte with the seeded random generator; paths and integrand headers are hostile by construction.
"""

import json
import random

DEEP = 100_000  # the nesting that overflowed a recursive dump() (D1); 10^4 always passed
LONG = 1_000_000  # a string of this many characters
RUN = 30_000  # a run of one character inside one regex match overflowed std::regex (D2)

PLACEHOLDER = "@@LADDER-FUZZ@@"

# Each kind: its name and its raw JSON text (bytes). The big ones are made once. The first two go round every
# key before the others (ordered_pairs): a recursive dump() of a quoted value overflows the stack on them.
JSON_KINDS = [
    ("deep-array", b"[" * DEEP + b"]" * DEEP),
    ("deep-object", b'{"a":' * DEEP + b"1" + b"}" * DEEP),
    ("long-string", b'"' + b"x" * LONG + b'"'),
    ("non-utf8", b'"caf\xe9 \xff\xfe \xc3("'),  # refused by the JSON parser itself: never reaches a message
    ("non-utf8-key", b'{"\xe9\xff": 1}'),
    ("wrong-type-bool", b"true"),
    ("wrong-type-string", b'"text"'),
    ("wrong-type-object", b'{"x": [1, {"y": null}]}'),
    ("wrong-type-array", b"[1, \"two\", null]"),
    ("null", b"null"),
    ("huge-1e308", b"1e308"),
    ("huge-2^64", b"18446744073709551616"),
    ("huge-2^64-1", b"18446744073709551615"),
    ("wraps-int", b"4294967298"),
    ("huge-negative", b"-9223372036854775809"),
    ("overflow-1e999", b"1e999"),
    ("negative", b"-1"),
    ("denormal", b"5e-324"),
]
# The kinds that cannot change what a resume measures: it is refused (or reads a label) whatever the key.
REFUSED_KINDS = {"deep-array", "deep-object", "long-string", "non-utf8", "non-utf8-key", "wrong-type-object",
                 "wrong-type-array"}


def json_paths(value, prefix=(), depth=0, limit=6):
    """Every key path of a JSON value (a list's first element stands for the others), parents first."""
    paths = []
    if depth >= limit:
        return paths
    if isinstance(value, dict):
        for key, child in value.items():
            paths.append(prefix + (key,))
            paths.extend(json_paths(child, prefix + (key,), depth + 1, limit))
    elif isinstance(value, list) and value:
        paths.append(prefix + (0,))
        paths.extend(json_paths(value[0], prefix + (0,), depth + 1, limit))
    return paths


def put_value(document, path, raw):
    """The document as JSON bytes with the value at path replaced by raw JSON text (bytes)."""
    copy = json.loads(json.dumps(document))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = PLACEHOLDER
    text = json.dumps(copy).encode()
    return text.replace(json.dumps(PLACEHOLDER).encode(), raw, 1)


def path_text(path):
    return ".".join(str(step) for step in path)


def ordered_pairs(paths, kinds, rng, first=2):
    """(path, kind) pairs, endless: every path once a round, the kinds rotating. The first `first` kinds (the
    ones a recursive or throwing dump() trips on) go round every path before the others."""
    order = list(paths)
    rng.shuffle(order)
    rest = len(kinds) - first
    round_ = 0
    while True:
        for index, path in enumerate(order):
            if round_ < first:
                yield path, kinds[(round_ + index) % first]
            else:
                yield path, kinds[first + (round_ - first + index) % rest]
        round_ += 1


# --- costs files -------------------------------------------------------------------------------------------

COST_KEYS = ["learning_minutes", "learning_hours", "learning_days", "adopt_per_concept", "adopt_per_library",
             "adopt_per_flag", "adopt_per_100_lines", "upkeep_per_library", "upkeep_per_flag",
             "upkeep_per_100_lines", "core_hour", "engineer_day", "horizon_years", "bus_factor", "team_knows",
             "an_unknown_key"]

TOML_KINDS = [  # toml++ refuses deep nesting and bytes that are not UTF-8 itself; long strings reach messages
    ("long-string", b'"' + b"x" * LONG + b'"'),
    ("wrong-type-table", b"{ x = 1 }"),
    ("deep-array", b"[" * DEEP + b"]" * DEEP),
    ("non-utf8", b'"caf\xe9 \xff"'),
    ("deep-inline-table", b"{a=" * DEEP + b"1" + b"}" * DEEP),
    ("wrong-type-bool", b"true"),
    ("wrong-type-string", b'"text"'),
    ("wrong-type-array", b'[1, "two"]'),
    ("huge-1e308", b"1e308"),
    ("huge-2^64", b"18446744073709551616"),
    ("wraps-int", b"4294967298"),
    ("int64-max", b"9223372036854775807"),
    ("negative", b"-1"),
    ("inf", b"inf"),
    ("nan", b"nan"),
]


def costs_file(key, kind_raw, toml):
    """A costs file whose one key holds the hostile raw value; a sane figure beside it."""
    if toml:
        return b"core_hour = 0.05\n" + key.encode() + b" = " + kind_raw + b"\n" if key != "core_hour" else \
            b"engineer_day = 700\ncore_hour = " + kind_raw + b"\n"
    base = {"engineer_day": 700} if key == "core_hour" else {"core_hour": 0.05}
    base[key] = PLACEHOLDER
    return json.dumps(base).encode().replace(json.dumps(PLACEHOLDER).encode(), kind_raw, 1)


# --- bytes: databases and journals ---------------------------------------------------------------------------

def flip_bytes(data, rng, count, region=None, avoid_digits=False):
    """data with count bytes changed at random offsets (within region=(start, end) when given)."""
    out = bytearray(data)
    start, end = region if region else (0, len(out))
    end = min(end, len(out))
    changed = 0
    while changed < count and end > start:
        at = rng.randrange(start, end)
        new = rng.randrange(256)
        if new == out[at]:
            continue
        if avoid_digits and (chr(out[at]).isdigit() or chr(new).isdigit()):
            continue  # a journal's numbers stay as they were: a resume then measures nothing new
        out[at] = new
        changed += 1
    return bytes(out)


def database_mutant(data, rng):
    """(kind, bytes): a history database byte-flipped or truncated."""
    choice = rng.randrange(8)
    if choice == 0:
        return "flip-header", flip_bytes(data, rng, rng.randint(1, 4), (0, 100))
    if choice == 1:
        return "flip-page1", flip_bytes(data, rng, rng.randint(1, 8), (100, 4096))
    if choice in (2, 3, 4):
        return "flip-anywhere", flip_bytes(data, rng, rng.randint(1, 16))
    if choice == 5:
        return "truncated", data[:rng.randrange(0, len(data))]
    if choice == 6:
        return "truncated-at-page", data[:4096 * rng.randint(0, max(0, len(data) // 4096 - 1))]
    return "garbage", bytes(rng.randrange(256) for _ in range(rng.choice([0, 100, 4096, 8192])))


def journal_byte_mutant(data, rng):
    """(kind, bytes): a journal damaged at the byte or line level; its numbers left alone."""
    lines = data.split(b"\n")
    choice = rng.randrange(9)
    if choice == 0:
        return "flip", flip_bytes(data, rng, rng.randint(1, 6), avoid_digits=True)
    if choice == 1:
        return "flip-header", flip_bytes(data, rng, rng.randint(1, 4), (0, len(lines[0])), avoid_digits=True)
    if choice == 2:
        return "truncated", data[:rng.randrange(0, len(data))]
    if choice == 3:
        return "nul", data[:len(lines[0]) // 2] + b"\0" * 10 + data[len(lines[0]) // 2:]
    if choice == 4:
        return "crlf", data.replace(b"\n", b"\r\n")
    if choice == 5:
        return "garbage-line", b"\n".join(lines[:1] + [b"\xff\xfe garbage {"] + lines[1:])
    if choice == 6:
        return "duplicated-line", b"\n".join(lines[:2] + lines[1:])
    if choice == 7:
        return "long-tail", data + b"x" * LONG
    return "empty", b""


# --- paths -------------------------------------------------------------------------------------------------

PATH_KINDS = ["non-utf8-new", "non-utf8-existing", "name-255-new", "name-256-new", "name-255-existing",
              "trailing-slash-new", "trailing-slash-existing", "directory", "user-file", "under-a-file",
              "dangling-symlink", "user-report-dir", "stray-export-marker", "dot-dot"]


def hostile_path(kind, directory):
    """(path as bytes, the user's files planted there to stay byte-identical) for one kind, made in directory."""
    import os
    d = os.fsencode(directory)

    def plant(folder, *names):
        os.makedirs(folder, exist_ok=True)
        planted = []
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "wb") as file:
                file.write(b"the user's own " + name + b"\n")
            planted.append(path)
        return planted

    if kind == "non-utf8-new":
        return os.path.join(d, b"r\xe9sultats\xff"), []
    if kind == "non-utf8-existing":
        path = os.path.join(d, b"r\xe9p\xff")
        return path, plant(path, b"notes.txt")
    if kind == "name-255-new":
        return os.path.join(d, b"a" * 255), []
    if kind == "name-256-new":
        return os.path.join(d, b"b" * 256), []
    if kind == "name-255-existing":
        path = os.path.join(d, b"c" * 255)
        return path, plant(path, b"notes.txt")
    if kind == "trailing-slash-new":
        return os.path.join(d, b"newdir") + b"/", []
    if kind == "trailing-slash-existing":
        path = os.path.join(d, b"mine")
        return path + b"/", plant(path, b"notes.txt")
    if kind == "directory":
        path = os.path.join(d, b"a-directory")
        return path, plant(path, b"notes.txt")
    if kind == "user-file":
        path = os.path.join(d, b"users-file.txt")
        return path, plant(d, b"users-file.txt")
    if kind == "under-a-file":
        planted = plant(d, b"plain-file")
        return os.path.join(d, b"plain-file", b"sub"), planted
    if kind == "dangling-symlink":
        path = os.path.join(d, b"dangling")
        os.symlink(b"nowhere/at/all", path)
        return path, []
    if kind == "user-report-dir":
        path = os.path.join(d, b"reports")
        return path, plant(path, b"report.md", b"notes.txt")
    if kind == "stray-export-marker":
        path = os.path.join(d, b"project")
        return path, plant(path, b".ladder-export.json", b"notes.txt")
    path = os.path.join(d, b"inner")
    os.makedirs(path, exist_ok=True)
    return os.path.join(path, b"..", b"up"), plant(d, b"beside.txt")


# --- integrand headers -------------------------------------------------------------------------------------

HEADER_SLOTS = ["space-before-brace", "long-name-value", "long-registration", "long-struct-name",
                "long-comment-line", "tabs-and-newlines", "long-template-line"]


def integrand_header(slot, rng):
    """A header written to the integrand contract with one long run of characters (10^4 to 10^5)."""
    length = rng.choice([RUN, RUN, 10_000, 60_000, 100_000])
    ident = "A" + "b" * length
    struct, name, registered, filler = "A", "a", "A", " "
    comment = ""
    if slot == "space-before-brace":
        filler = " " * length
    elif slot == "long-name-value":
        name = "n" * length
    elif slot == "long-registration":
        registered = ident
    elif slot == "long-struct-name":
        struct = registered = ident
    elif slot == "long-comment-line":
        comment = "// " + "c" * length + "\n"
    elif slot == "tabs-and-newlines":
        filler = "".join(rng.choice(" \t\n") for _ in range(length))
    else:
        comment = "template <" + "class T, " * (length // 9) + "class U> struct Z;\n"
    return ("#pragma once\n#include \"ladder/integrand.hpp\"\n" + comment + "struct " + struct + filler + "{\n"
            "  static constexpr std::string_view name = \"" + name + "\";\n"
            "  template <class T> T operator()(const T& x) const { return x * x; }\n};\n"
            "LADDER_INTEGRAND(" + registered + ");\n").encode()


# --- option values -----------------------------------------------------------------------------------------

OPTION_VALUES = [b"x" * 100_000, b"caf\xe9\xff", b"9" * 5000, b"1e308", b"18446744073709551616", b"4294967298",
                 b"-1", b"nan", b"", b",", b"\xff" * 1000, b"a\nb", b"1e-400"]


def seeded(seed, family):
    return random.Random(f"{seed}:{family}")
