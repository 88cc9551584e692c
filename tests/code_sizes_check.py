"""Sizes that fit in one head: no product file over 400 lines, no function over 100.

A file or function may pass the bar only when this script's EXCEPTIONS names it with its reason, and the
same reason opens the code itself; today there are none. Functions are found by a brace counter over the
source with comments, strings and character literals blanked: a `{` whose statement ends in `)` (plus
qualifiers such as const, noexcept, override, `-> type` or a constructor's member initializers) opens a
function or lambda body, unless the `)` closes an if, for, while, switch or catch. A function's length runs
from the line of its name to the line of its closing brace, as ctags counts it.

  usage: code_sizes_check.py SOURCE_DIR [FOLDER...]   (default folders: the product's)
         code_sizes_check.py --self-test                 (the checker on planted faults)
Exits 1 and names each file or function over its bar, 0 when all fit.
"""
import pathlib
import re
import sys

FILE_LINES = 400
FUNCTION_LINES = 100
PRODUCT = ("app", "common", "export", "harness", "history", "reports", "tools", "variants")
SUFFIXES = {".cpp", ".hpp", ".cu", ".cuh", ".h", ".cc"}
EXCEPTIONS = {}  # "folder/file.cpp" or "folder/file.cpp:function" -> why
CONTROL = {"if", "for", "while", "switch", "catch", "sizeof", "decltype", "alignof", "requires", "constexpr"}


def blank(text):
    """The text with comments, strings and character literals replaced by spaces, newlines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


QUALIFIERS = re.compile(
    r"(\s*(const|noexcept|override|final|mutable|constexpr|volatile|&&?|->\s*[\w:<>,\s*&]+?|"
    r"noexcept\s*\([^()]*\)))*\s*$")
NAME = re.compile(r"(operator\s*\(\s*\)|operator\s*[^\s\w(]+|[A-Za-z_~][\w:~<>]*|\])\s*$")


def without_qualifiers(head):
    m = QUALIFIERS.search(head, max(0, len(head) - 300))  # qualifiers are short; the search is costly
    return (head[: m.start()] if m else head).rstrip()


def matching(code, close, opener, closer):
    """The index of the opener that the closer at `close` closes, or -1."""
    depth = 0
    for k in range(close, -1, -1):
        if code[k] == closer:
            depth += 1
        elif code[k] == opener:
            depth -= 1
            if depth == 0:
                return k
    return -1


def function_name(code, brace):
    """The name of the function (or "lambda") whose body opens at `brace`, and the index of its line from
    0; None when the brace opens anything else."""
    window = max(0, brace - 4000)  # a signature and its initializers fit in far less
    head = without_qualifiers(code[window:brace])
    while head.endswith(")") or head.endswith("}"):  # `}`: only a constructor's `b_{y}` initializer
        closer = head[-1]
        start = matching(head, len(head) - 1, "(" if closer == ")" else "{", closer)
        if start < 0:
            return None
        before = head[:start].rstrip()
        word = NAME.search(before)
        if not word:
            return None
        prefix = before[: word.start()].rstrip()
        if word.group(1) != "]" and (prefix.endswith(",") or (prefix.endswith(":") and not prefix.endswith("::"))):
            head = without_qualifiers(prefix[:-1].rstrip())
            continue
        if closer == "}":
            return None
        name = word.group(1)
        if name in CONTROL or name.split("::")[-1] in CONTROL:
            return None
        return ("lambda" if name == "]" else name, code.count("\n", 0, window) + before.count("\n", 0, word.start()))
    return None


def functions(text):
    """(name, first line, last line) of every function and lambda body in the text, lines from 1."""
    code = blank(text)
    found, stack = [], []
    for i, c in enumerate(code):
        if c == "{":
            named = function_name(code, i)
            stack.append(named)
        elif c == "}" and stack:
            named = stack.pop()
            if named:
                found.append((named[0], named[1] + 1, code.count("\n", 0, i) + 1))
    return found


def check(root, folders):
    faults = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8", errors="replace")
            lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
            if lines > FILE_LINES and rel not in EXCEPTIONS:
                faults.append(f"{rel}: {lines} lines, over {FILE_LINES}")
            for name, first, last in functions(text):
                length = last - first + 1
                if length > FUNCTION_LINES and f"{rel}:{name}" not in EXCEPTIONS:
                    faults.append(f"{rel}:{first}: function {name} is {length} lines, over {FUNCTION_LINES}")
    return faults


def self_test():
    """The checker on planted code: each planted fault is named, and nothing else is."""
    import tempfile

    body = lambda k: "".join(f"  x += {i};\n" for i in range(k))
    planted = {
        "app/long.cpp": "// a function of 101 lines\nint too_long(int x) {\n" + body(99) + "}\n",
        "app/fits.cpp": "// exactly 100 lines, a constructor's initializers, a lambda and an if\n"
        "struct S { S(int a) : a_(a), b_{a} {\n" + body(97) + "} int a_, b_; };\n"
        "int f(int x) {\n  auto g = [&](int y) -> int {\n" + body(40) + "  return y; };\n"
        "  if (x) {\n" + body(40).replace("x +=", "// x +=") + "  }\n  return g(x);\n}\n"
        'const char* s = "int not_code(int x) { return x; }";\n',
        "app/lambda.cpp": "// a lambda of 102 lines, in a call in a function that it makes long\nvoid h() {\n  run([](int y) {\n"
        + body(100) + "  });\n}\n",
        "app/ctor.cpp": "// a constructor of 101 lines, its initializers between\nstruct T {\n  T(int a)\n"
        "      : a_(a), b_{a} {\n" + body(98) + "  }\n  int a_, b_;\n};\n",
        "app/huge.hpp": "// 401 lines\n" + "int v;\n" * 400,
        "app/edge.hpp": "// 400 lines\n" + "int v;\n" * 399,
    }
    want = {"app/huge.hpp: 401 lines", "app/ctor.cpp:3: function T is 101 lines", "app/long.cpp:2: function too_long is 101 lines",
            "app/lambda.cpp:3: function lambda is 102 lines",
            "app/lambda.cpp:2: function h is 104 lines"}
    with tempfile.TemporaryDirectory() as root:
        for name, text in planted.items():
            path = pathlib.Path(root, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        faults = check(pathlib.Path(root), ["app"])
    named = {f.split(", over")[0] for f in faults}
    print("\n".join(faults))
    if named != want:
        print(f"self-test failed: wanted {sorted(want)}, got {sorted(named)}")
        return 1
    print("self-test: each planted fault named, nothing else")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1])
    folders = argv[2:] or [f for f in PRODUCT if (root / f).is_dir()]
    faults = check(root, folders)
    for fault in faults:
        print(fault)
    print(f"{len(faults)} over the bar in {', '.join(folders)}")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
