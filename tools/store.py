#!/usr/bin/python3
"""store.py - the vkbench results store (docs/store.md): import result files, check them, ask it questions.

  store.py import FILE|DIR...      every results file (any schema), health verdict and CSV; a folder: its .json,
                                   .csv (where no .json of that name exists) and .tar.gz, recursively
  store.py check FILE...           the checker alone: one line per reason a record is refused
  store.py history | drivers | row | health | verdicts ...   the questions (docs/store.md), --json, --csv
  store.py baseline PATH           a `vkbench health --baseline` file from the store's healthy history
  store.py page --out DIR          the results page: a static site of the store (matrix, timelines, health)
  store.py push --server DSN       send the store's runs (or result files) to the fleet's PostgreSQL server
  store.py server-init --server DSN [--node ROLE=HOST]   make or migrate that server's store, add nodes

--db PATH chooses the store (default: $VKB_DB, else ${XDG_DATA_HOME:-~/.local/share}/vkbench/results.db).

Exit 0; 1 a record refused (import, check); 2 usage or an unreadable input; 4 a database that is no vkbench store
or of a newer schema; 6 a database or output that cannot be written (read-only, full disk); 7 the server is
down, silent or dropped the connection (push again); 8 the server refused a run or a login."""
import argparse
import os
import sys

import vkbbaseline
import vkbjson
import vkbpage
import vkbquestions
import vkbrecord
import vkbserver
import vkbstore

REFUSED_RECORD = 1


def say(msg):
    vkbjson.say(f"store: {msg}")


def files_of(paths):
    """The files PATHS name: a folder stands for its .json, .tar.gz and (where no .json has its name) .csv files."""
    out = []
    for p in paths:
        if not os.path.isdir(p):
            out.append(p)
            continue
        for root, dirs, names in os.walk(p):
            dirs.sort()
            stems = {n[:-5] for n in names if n.endswith(".json")}
            out += [os.path.join(root, n) for n in sorted(names) if n.endswith((".json", ".tar.gz"))
                    or (n.endswith(".csv") and n[:-4] not in stems and vkbrecord_csv(os.path.join(root, n)))]
    return out


def vkbrecord_csv(path):
    """Whether the CSV at PATH is vkbench's (another tool's CSV in a results folder is left alone)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(len(vkbrecord.CSV_HEAD)) == vkbrecord.CSV_HEAD
    except OSError:
        return True     # read() says why it cannot be read


def cmd_import(args):
    db = vkbstore.connect(args.db)
    code, added, known = 0, 0, 0
    for path in files_of(args.files):
        try:
            subs = vkbrecord.read(path)
        except vkbrecord.Refused as e:
            for line in e.args[0]:
                say(line)
            code = REFUSED_RECORD
            continue
        for sub in subs:
            if vkbstore.insert(db, sub) is None:
                known += 1
            else:
                added += 1
    if not args.quiet:
        print(f"{added} run(s) added, {known} already stored")
    return code


def cmd_check(args):
    code = 0
    for path in files_of(args.files):
        try:
            subs = vkbrecord.read(path)
            if not args.quiet:
                print(f"{vkbjson.clean(path)}: taken ({sum(len(s.rows) for s in subs)} rows)")
        except vkbrecord.Refused as e:
            for line in e.args[0]:
                say(line)
            code = REFUSED_RECORD
    return code


def cmd_baseline(args):
    db = vkbstore.connect(args.db, create=False)
    vkbjson.claim([("baseline", args.path)], [db.shown])
    out = vkbjson.Output(args.path, "the baseline")
    out.finish(vkbbaseline.text(db, args.last))
    return 0


def parser():
    ap = vkbjson.ArgumentParser(prog="store.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    common = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--db", metavar="PATH", help=argparse.SUPPRESS)
    common.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS, help="the store (default: $VKB_DB, else "
                        "${XDG_DATA_HOME:-~/.local/share}/vkbench/results.db)")
    sub = ap.add_subparsers(dest="command", required=True, parser_class=vkbjson.ArgumentParser)
    p = sub.add_parser("import", parents=[common], help="store result files")
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(handler=cmd_import)
    p = sub.add_parser("check", parents=[common], help="check result files without storing them")
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(handler=cmd_check)
    p = sub.add_parser("baseline", parents=[common], help="write a vkbench health --baseline file")
    p.add_argument("path", metavar="PATH", help="the file to write (- for stdout)")
    p.add_argument("--last", type=int, help="the last N health runs per GPU (default: all)")
    p.set_defaults(handler=cmd_baseline)
    vkbquestions.add_commands(sub, common)
    vkbserver.add_commands(sub, common)
    vkbpage.add_commands(sub, common)
    return ap


def main():
    args = parser().parse_args()
    try:
        return args.handler(args)
    except (vkbstore.StoreError, vkbserver.ServerError) as e:
        say(str(e))
        return e.code


if __name__ == "__main__":
    sys.argv[0] = "store"
    vkbjson.run_main(main)
