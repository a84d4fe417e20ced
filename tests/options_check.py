#!/usr/bin/env python3
"""The man page is the reference of every command's options; this checks that it, `--help` and
the options the command accepts agree (tests/options_test.sh runs it):

  - the commands `md5cine --help` lists are the COMMANDS subsections of the man page;
  - per command, the options `md5cine CMD --help` lists (made from the command's one table of
    options in src/cli/) are the options the man page's subsection tags (.TP), short aliases
    included, and each is accepted: a flag is followed by an unknown option that is then the one
    refused, a valued option without a value is refused as needing one;
  - where --help lists an option's words (`--clock ideal|engine`), the man page lists the same
    words, each is accepted and another word is refused as a bad value;
  - no table of README.md or docs/*.md is a table of options (headed "option"): the
    documentation shows examples and links to the man page.

usage: options_check.py MD5CINE MAN_PAGE SOURCE_DIR; prints one line per check, exit 1 on a
failure."""
import glob
import os
import re
import shlex
import subprocess
import sys

MD5CINE, MAN, SRC = sys.argv[1], sys.argv[2], sys.argv[3]
NOT_AN_OPTION = "--zz-not-an-option"
failures = 0


def outcome(name, good, why=""):
    global failures
    print(("ok   " if good else "FAIL ") + name + ("" if good or not why else ": " + why))
    failures += 0 if good else 1


def run(*args):
    p = subprocess.run([MD5CINE, *args], capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def commands_of_help():
    return re.findall(r"^  md5cine ([a-z]+) ", run("--help")[1], re.M)


HELP_OPT = re.compile(r"^  (?:(-[a-z]), )?(--[a-z][a-z-]*)(?: (\S+))?(?:  |$)")


def options_of_help(cmd):
    """{name: metavar or None} and {alias: name}, --help itself left out."""
    opts, aliases = {}, {}
    for line in run(cmd, "--help")[1].splitlines():
        m = HELP_OPT.match(line)
        if not m or m.group(2) == "--help":
            continue
        opts[m.group(2)] = m.group(3)
        if m.group(1):
            aliases[m.group(1)] = m.group(2)
    return opts, aliases


FONT_JOINED = {".BI", ".BR", ".IB", ".IR", ".RB", ".RI"}


def roff_text(line):
    """A man-page text or font-macro line as the words it prints."""
    words = line.split(None, 1)
    if words and words[0] in FONT_JOINED | {".B", ".I"}:
        args = shlex.split(words[1].replace("\\", "\\\\")) if len(words) > 1 else []
        line = ("" if words[0] in FONT_JOINED else " ").join(args)
    for esc, plain in (("\\-", "-"), ("\\(dq", '"'), ("\\ ", " "), ("\\&", ""), ("\\:", ""),
                       ("\\%", "")):
        line = line.replace(esc, plain)
    return re.sub(r"\\f[BIRP]", "", line).strip()


def options_of_man():
    """{command: {option: value or None}} from the tags of the COMMANDS subsections."""
    lines = open(MAN, encoding="utf-8").read().splitlines()
    found, cmd, section = {}, None, None
    for i, line in enumerate(lines):
        if line.startswith(".SH"):
            section = roff_text(line[3:].strip().strip('"'))
            cmd = None
        elif line.startswith(".SS") and section == "COMMANDS":
            cmd = roff_text(line[3:].strip().strip('"')).split()[0]
            found[cmd] = {}
        elif line in (".TP", ".TQ") and cmd and i + 1 < len(lines):
            for item in roff_text(lines[i + 1]).split(", "):
                parts = item.split()
                if parts and parts[0].startswith("-"):
                    found[cmd][parts[0]] = parts[1] if len(parts) > 1 else None
    return found


def flags_accepted(cmd, flags):
    """Why md5cine CMD refuses one of the flags (given all at once: the parser reads every option
    before it acts), or None when it takes them all and stops at the unknown one after them."""
    rc, _, err = run(cmd, *flags, NOT_AN_OPTION)
    return None if f"unknown option '{NOT_AN_OPTION}'" in err else err.strip()[:200]


def valued_accepted(cmd, opt):
    """Why md5cine CMD refuses OPT as an unknown option, or None when it asks for its value."""
    rc, _, err = run(cmd, opt)
    return None if "needs a value" in err and rc == 2 else err.strip()[:200]


def check_words(cmd, opt, words):
    """Every word given, one after the other in one run (each replaces the one before), then a
    word that is none of them."""
    args = [a for w in words for a in (opt, w)]
    rc, _, err = run(cmd, *args, NOT_AN_OPTION)
    outcome(f"{cmd}_{opt}_takes_{'_'.join(words)}", f"unknown option '{NOT_AN_OPTION}'" in err,
            err[:200])
    rc, _, err = run(cmd, opt, "zz-no-such-word")
    outcome(f"{cmd}_{opt}_refuses_another_word", rc == 2 and f"bad {opt} 'zz-no-such-word'" in err,
            err[:200])


def check_command(cmd, man):
    opts, aliases = options_of_help(cmd)
    outcome(f"{cmd}_help_lists_options", bool(opts), "none found in --help")
    help_names = set(opts) | set(aliases)
    man_names = set(man)
    outcome(f"{cmd}_help_and_man_page_name_the_same_options", help_names == man_names,
            f"only in --help: {sorted(help_names - man_names)}, "
            f"only in the man page: {sorted(man_names - help_names)}")
    flags = sorted(o for o, m in opts.items() if m is None)
    flags += sorted(a for a, o in aliases.items() if opts[o] is None)
    if flags:
        why = flags_accepted(cmd, flags)
        outcome(f"{cmd}_accepts_its_flags ({' '.join(flags)})", why is None, why or "")
    valued = sorted(o for o, m in opts.items() if m is not None)
    valued += sorted(a for a, o in aliases.items() if opts[o] is not None)
    for opt in valued:
        why = valued_accepted(cmd, opt)
        outcome(f"{cmd}_accepts_{opt}", why is None, why or "")
    for opt, metavar in sorted(opts.items()):
        if metavar and "|" in metavar:
            words = metavar.split("|")
            outcome(f"{cmd}_{opt}_words_agree", man.get(opt) == metavar,
                    f"--help: {metavar}, man page: {man.get(opt)}")
            # A placeholder in capitals ("N" of "N|auto") stands for a value, not a word.
            check_words(cmd, opt, [w for w in words if not w.isupper()])


def check_no_option_tables():
    """A table headed "option" (the form the manual's option tables had) in README.md or docs/."""
    docs = [os.path.join(SRC, "README.md")] + sorted(glob.glob(os.path.join(SRC, "docs", "*.md")))
    found = []
    for path in docs:
        previous = ""
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            cells = [c.strip().lower() for c in line.strip().strip("|").split("|")]
            if line.startswith("|") and not previous.startswith("|") and \
                    any(c in ("option", "options", "flag") for c in cells):
                found.append(f"{os.path.relpath(path, SRC)}:{n}")
            previous = line
    outcome("no_table_of_the_docs_lists_options", not found, " ".join(found[:10]))


def main():
    cmds = commands_of_help()
    man = options_of_man()
    outcome("commands_are_found", len(cmds) >= 9, f"{cmds}")
    outcome("help_and_man_page_have_the_same_commands", sorted(cmds) == sorted(man),
            f"--help: {sorted(cmds)}, man page: {sorted(man)}")
    for cmd in cmds:
        check_command(cmd, man.get(cmd, {}))
    check_no_option_tables()
    print(f"{failures} failed")
    return 1 if failures else 0


sys.exit(main())
