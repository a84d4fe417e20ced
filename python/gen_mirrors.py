#!/usr/bin/env python3
"""Writes the Python module's ctypes mirrors of the public C structs from the headers.

    gen_mirrors.py OUT_PY OUT_C HEADER... -- STRUCT[:FIELD]...

Reads the typedefs of include/md5cine/*.h (structs, enums, scalar and function-pointer
typedefs, #define'd array sizes) and writes:

- OUT_PY (md5cine/_structs.py): one ctypes.Structure per STRUCT named, with its fields in the
  header's order and types, after the structs it holds by value (which are mirrored too).
  STRUCT:FIELD mirrors the leading fields only, up to FIELD (mc_scene, whose tail the module
  never reads: it keeps the struct in a buffer of the compiler's size).
- OUT_C (abi_fields.inc): for abi.c, an S(type) line per whole mirror and an O(type, field)
  line per mirrored field, so that the module's import compares every size and offset with what
  the compiler made of the same headers.

The header style this reads is the project's own: one declaration per `;`, several declarators
after one type (`int width, height;`), arrays with a number or a #define'd number, no bit
fields, no nested anonymous structs. Anything else stops the build with the header's name, so a
header change can never turn into a silently wrong mirror.
"""
import re
import sys

SCALARS = {
    "int": "ctypes.c_int", "unsigned": "ctypes.c_uint", "unsigned int": "ctypes.c_uint",
    "long": "ctypes.c_long", "unsigned long": "ctypes.c_ulong",
    "long long": "ctypes.c_longlong", "unsigned long long": "ctypes.c_ulonglong",
    "size_t": "ctypes.c_size_t", "double": "ctypes.c_double", "float": "ctypes.c_float",
    "bool": "ctypes.c_bool", "char": "ctypes.c_char", "int64_t": "ctypes.c_int64",
    "uint64_t": "ctypes.c_uint64", "int32_t": "ctypes.c_int32", "uint32_t": "ctypes.c_uint32",
    "int16_t": "ctypes.c_int16", "uint16_t": "ctypes.c_uint16", "int8_t": "ctypes.c_int8",
    "uint8_t": "ctypes.c_uint8", "void": "None",
}
QUALIFIERS = {"const", "volatile", "struct", "enum"}


class HeaderError(Exception):
    pass


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


class Headers:
    def __init__(self, paths):
        self.structs = {}    # name -> (header, body text)
        self.enums = set()
        self.scalars = {}    # typedef name -> base type words
        self.funcs = {}      # function pointer typedef -> (return words, [param texts])
        self.defines = {}
        for path in paths:
            with open(path, encoding="utf-8") as f:
                self.read(path, f.read())

    def read(self, path, raw):
        for m in re.finditer(r"^\s*#define\s+(\w+)\s+(\d+)\b", raw, re.M):
            self.defines[m.group(1)] = int(m.group(2))
        text = strip_comments(raw)
        for m in re.finditer(r"typedef\s+enum\s*\w*\s*\{[^}]*\}\s*(\w+)\s*;", text):
            self.enums.add(m.group(1))
        for m in re.finditer(r"typedef\s+struct\s*\w*\s*\{", text):
            depth, i = 1, m.end()
            while depth and i < len(text):
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            tail = re.match(r"\s*(\w+)\s*;", text[i:])
            if not tail:
                raise HeaderError("%s: a struct typedef without its name" % path)
            self.structs[tail.group(1)] = (path, text[m.end():i - 1])
        for m in re.finditer(r"typedef\s+([\w\s]+?)\s*\(\s*\*\s*(\w+)\s*\)\s*\(([^)]*)\)\s*;",
                             text):
            params = [p.strip() for p in m.group(3).split(",") if p.strip()]
            self.funcs[m.group(2)] = (m.group(1).split(), params)
        for m in re.finditer(r"typedef\s+([\w\s]+?)\s+(\w+)\s*;", text):
            words = m.group(1).split()
            if words[0] not in ("struct", "enum"):
                self.scalars[m.group(2)] = words


class Mirrors:
    def __init__(self, headers):
        self.h = headers
        self.out = []        # python source lines
        self.done = set()
        self.fields = {}     # struct -> [field names mirrored]
        self.whole = []      # structs mirrored whole (their size is checked)
        self.funcs_done = set()

    def scalar(self, words):
        words = [w for w in words if w not in QUALIFIERS]
        key = " ".join(words)
        if key in SCALARS:
            return SCALARS[key]
        if len(words) == 1 and words[0] in self.h.enums:
            return "ctypes.c_int"
        if len(words) == 1 and words[0] in self.h.scalars:
            return self.scalar(self.h.scalars[words[0]])
        return None

    def func(self, name):
        if name not in self.funcs_done:
            ret, params = self.h.funcs[name]
            args = []
            for p in params:
                if p == "void":
                    continue
                args.append("ctypes.c_void_p" if "*" in p else
                            self.scalar(p.split()[:-1]) or "ctypes.c_void_p")
            res = self.scalar(ret) or "ctypes.c_void_p"
            self.out.append("")
            self.out.append("")
            self.out.append("%s = ctypes.CFUNCTYPE(%s)" % (name, ", ".join([res] + args)))
            self.funcs_done.add(name)
        return name

    def ctype(self, words, stars, dims, where):
        """The ctypes expression of one declarator, or None when it cannot be mirrored."""
        base = [w for w in words if w not in QUALIFIERS]
        name = base[-1] if base else ""
        if stars:
            if stars == 1 and base == ["char"]:
                t = "ctypes.c_char_p"
            elif stars == 1 and name in self.wanted and name not in self.leading:
                self.struct(name)
                t = "ctypes.POINTER(%s)" % name
            else:
                t = "ctypes.c_void_p"
        elif len(base) == 1 and name in self.h.funcs:
            t = self.func(name)
        elif len(base) == 1 and name in self.h.structs:
            if not self.struct(name, nested=True):
                return None
            t = name
        else:
            t = self.scalar(base)
            if t is None or t == "None":
                raise HeaderError("%s: no ctypes type for '%s'" % (where, " ".join(words)))
        for d in reversed(dims):
            n = int(d) if d.isdigit() else self.h.defines.get(d)
            if n is None:
                raise HeaderError("%s: array size '%s' is not a number" % (where, d))
            t = "(%s * %d)" % (t, n)
        return t

    def struct(self, name, stop=None, nested=False):
        """Mirrors one struct (after those it holds); False when it cannot be (nested only)."""
        if name in self.done:
            return True
        if name not in self.h.structs:
            raise HeaderError("no struct typedef '%s' in the headers" % name)
        path, body = self.h.structs[name]
        where = "%s: %s" % (path, name)
        fields = []
        for decl in body.split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            if "{" in decl or ":" in decl or "(" in decl:
                raise HeaderError("%s: cannot mirror '%s'" % (where, decl))
            first = re.match(r"((?:\w+\s+)*?\w+)\s*(\**\s*\w+(?:\s*\[\s*\w+\s*\])*)\s*(,.*)?$",
                             decl)
            if not first:
                raise HeaderError("%s: cannot read '%s'" % (where, decl))
            words = first.group(1).split()
            decls = [first.group(2)] + [d for d in (first.group(3) or "").split(",") if d.strip()]
            for d in decls:
                dm = re.match(r"\s*(\**)\s*(\w+)((?:\s*\[\s*\w+\s*\])*)\s*$", d)
                if not dm:
                    raise HeaderError("%s: cannot read '%s'" % (where, d))
                field = dm.group(2)
                if field == stop:
                    break
                dims = re.findall(r"\[\s*(\w+)\s*\]", dm.group(3))
                t = self.ctype(words, len(dm.group(1)), dims, where)
                if t is None:
                    if nested:
                        return False
                    raise HeaderError("%s: cannot mirror field '%s'" % (where, field))
                fields.append((field, t))
            else:
                continue
            break
        self.out.append("")
        self.out.append("")
        self.out.append("class %s(_S):" % name)
        self.out.append("    _fields_ = [")
        for f, t in fields:
            self.out.append("        (\"%s\", %s)," % (f, t))
        self.out.append("    ]")
        self.done.add(name)
        self.fields[name] = [f for f, _ in fields]
        if stop is None:
            self.whole.append(name)
        return True


def main(argv):
    sep = argv.index("--")
    out_py, out_c, headers = argv[1], argv[2], argv[3:sep]
    wanted = [w.split(":") for w in argv[sep + 1:]]
    h = Headers(headers)
    m = Mirrors(h)
    m.wanted = {w[0] for w in wanted}
    m.leading = {w[0] for w in wanted if len(w) > 1}
    try:
        for w in wanted:
            m.struct(w[0], stop=w[1] if len(w) > 1 else None)
    except HeaderError as e:
        sys.stderr.write("gen_mirrors.py: error: %s\n" % e)
        return 1
    with open(out_py, "w", encoding="utf-8") as f:
        f.write("# Generated at build time by python/gen_mirrors.py from include/md5cine/*.h.\n"
                "import ctypes\n\n\nclass _S(ctypes.Structure):\n    pass\n")
        f.write("\n".join(m.out) + "\n\n")
        f.write("# Mirrored whole: their sizes are checked at import.\n")
        f.write("WHOLE = [%s]\n" % ", ".join(m.whole))
        f.write("# Mirrored up to a field: only their leading fields' offsets are checked.\n")
        f.write("LEADING = [%s]\n" % ", ".join(sorted(m.done - set(m.whole))))
    with open(out_c, "w", encoding="utf-8") as f:
        f.write("/* Generated at build time by python/gen_mirrors.py: every struct and field the\n"
                " * Python module mirrors, for abi.c's S() and O(). */\n")
        for s in m.whole:
            f.write("S(%s);\n" % s)
        for s in sorted(m.fields):
            for field in m.fields[s]:
                f.write("O(%s, %s);\n" % (s, field))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
