"""Command-line interface: ``einvoice-tw``."""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from typing import List, Optional, Sequence, Union

from . import __version__
from ._models import Barcode, Invoice, InvoiceError, InvoiceFormatError
from ._parse import RIGHT_PREFIX, is_barcode, parse_any
from ._prize import PeriodMismatchError, WinningNumbers, check
from ._ubn import is_valid_ubn

__all__ = ["main", "build_parser"]

_EPILOG = """\
examples:
  einvoice-tw parse "<left QR text>" "<right QR text>"     human-readable summary
  einvoice-tw parse --json "<left QR text>"                JSON
  einvoice-tw parse --csv < scans.txt > items.csv          one CSV row per item, many invoices
  einvoice-tw parse "*10404UZ176908720122*"                the Code 39 barcode works too
  einvoice-tw check AB11223344 --period 11306 \\
      --special 12345678 --grand 87654321 --first 11111111 22222222 33333333
  einvoice-tw check --numbers 11306.json < scans.txt       winning numbers from a JSON file
  einvoice-tw ubn 04595257 12345678                        validate 統一編號 checksums

stdin format: one scanned code per line; a line starting with '**' is the right
QR code of the invoice on the previous line.
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="einvoice-tw",
        description="Parse Taiwan e-invoice QR codes / barcodes and check the uniform-invoice lottery.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("-V", "--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    sp = sub.add_parser("parse", help="decode QR code / barcode text into structured data", formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("codes", nargs="*", metavar="CODE", help="scanned text (left QR, optional '**' right QR, or barcode); omit to read stdin")
    out = sp.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="output JSON: an object for one invoice given as arguments, otherwise a list")
    out.add_argument("--csv", action="store_true", help="output one CSV row per item")
    sp.add_argument("--strict", action="store_true", help="reject any deviation from the official specification")
    sp.add_argument("--no-fix", action="store_true", help="do not repair Latin-1 mojibake in item names")
    sp.add_argument("--indent", type=int, default=2, metavar="N", help="JSON indentation, 0 for compact (default: 2)")

    sc = sub.add_parser("check", help="check invoices against a period's winning numbers", formatter_class=argparse.RawDescriptionHelpFormatter)
    sc.add_argument("codes", nargs="*", metavar="CODE", help="invoice numbers (AB12345678), QR texts or barcodes; omit to read stdin")
    sc.add_argument("--numbers", metavar="FILE", help="JSON file with period/special/grand/first/additional")
    sc.add_argument("--period", metavar="YYYMM", help="lottery period, e.g. 11306")
    sc.add_argument("--special", metavar="N", help="特別獎 number (8 digits)")
    sc.add_argument("--grand", metavar="N", help="特獎 number (8 digits)")
    sc.add_argument("--first", nargs="+", metavar="N", help="頭獎 numbers (8 digits each)")
    sc.add_argument("--additional", nargs="*", default=[], metavar="N", help="增開六獎 numbers (3 digits each)")
    sc.add_argument("--no-verify-period", action="store_true", help="compare numbers even if the invoice period differs")
    sc.add_argument("--json", action="store_true", help="output JSON")

    su = sub.add_parser("ubn", help="validate 統一編號 checksums")
    su.add_argument("ubns", nargs="+", metavar="UBN")
    return p


# --------------------------------------------------------------------------- #
# Helpers
# --------------------------------------------------------------------------- #

def _read_stdin_lines() -> List[str]:
    buffer = getattr(sys.stdin, "buffer", None)
    text = buffer.read().decode("utf-8-sig") if buffer is not None else sys.stdin.read()
    return [line.strip() for line in text.splitlines() if line.strip()]


def _group_codes(codes: Sequence[str]) -> List[List[str]]:
    """Group scanned codes into invoices.

    A ``**`` right code joins the left QR code just before it (never a
    barcode or a plain invoice number); a ``**`` code that comes *first* is
    attached to the left code that follows it, so ``RIGHT LEFT`` works too.
    """
    groups: List[List[str]] = []
    pending_right: Optional[str] = None
    for code in codes:
        if code.startswith(RIGHT_PREFIX):
            if groups and len(groups[-1]) == 1 and _is_left_qr(groups[-1][0]):
                groups[-1].append(code)
            elif pending_right is None:
                pending_right = code
            else:
                groups.append([pending_right])
                pending_right = code
            continue
        if pending_right is not None and _is_left_qr(code):
            groups.append([code, pending_right])
            pending_right = None
        else:
            if pending_right is not None:
                groups.append([pending_right])
                pending_right = None
            groups.append([code])
    if pending_right is not None:
        groups.append([pending_right])
    return groups


def _is_left_qr(code: str) -> bool:
    return len(code) >= 77 and not is_barcode(code)


def _collect_codes(args: argparse.Namespace) -> List[List[str]]:
    if args.codes:
        return _group_codes([c.strip() for c in args.codes if c and c.strip()])
    stdin = sys.stdin
    if stdin is None or stdin.isatty():
        raise InvoiceError("no input: pass the scanned text as arguments or pipe it to stdin (see --help)")
    lines = _read_stdin_lines()
    if not lines:
        raise InvoiceError("stdin is empty")
    return _group_codes(lines)


def _load_numbers(args: argparse.Namespace) -> WinningNumbers:
    if args.numbers:
        return WinningNumbers.from_json(args.numbers)
    missing = [flag for flag, value in (("--period", args.period), ("--special", args.special), ("--grand", args.grand), ("--first", args.first)) if not value]
    if missing:
        raise InvoiceError("winning numbers required: give --numbers FILE or all of " + ", ".join(missing))
    try:
        return WinningNumbers(period=args.period, special=args.special, grand=args.grand, first=args.first, additional=args.additional)
    except ValueError as exc:
        raise InvoiceError(str(exc)) from exc


def _write(text: str) -> None:
    sys.stdout.write(text)
    if not text.endswith("\n"):
        sys.stdout.write("\n")
    sys.stdout.flush()


def _configure_streams() -> None:
    try:
        reconfigure = getattr(sys.stderr, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    except (AttributeError, ValueError, OSError):  # pragma: no cover
        pass
    try:
        if not sys.stdout.isatty():
            reconfigure = getattr(sys.stdout, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(encoding="utf-8", errors="replace", newline="\n")
    except (AttributeError, ValueError, OSError):  # pragma: no cover
        pass


# --------------------------------------------------------------------------- #
# Commands
# --------------------------------------------------------------------------- #

def _cmd_parse(args: argparse.Namespace) -> int:
    groups = _collect_codes(args)
    results: List[Union[Invoice, Barcode]] = []
    failures = 0
    for group in groups:
        try:
            results.append(parse_any(*group, strict=args.strict, fix_mojibake=not args.no_fix))
        except InvoiceFormatError as exc:
            failures += 1
            preview = group[0][:20] + ("..." if len(group[0]) > 20 else "")
            print(f"einvoice-tw: skipped {preview!r}: {exc}", file=sys.stderr)
    if not results:
        raise InvoiceError("no code could be parsed")

    indent = None if args.indent is not None and args.indent <= 0 else args.indent
    if args.json:
        payload = [r.to_dict() for r in results]
        # One invoice given on the command line -> an object; stdin batches -> always a list.
        single = bool(args.codes) and len(groups) == 1 and len(payload) == 1
        _write(json.dumps(payload[0] if single else payload, indent=indent, ensure_ascii=False))
    elif args.csv:
        rows = []
        for r in results:
            if isinstance(r, Invoice):
                rows.extend(r.item_rows())
            else:
                rows.append({"number": r.number, "period": r.period, "random_code": r.random_code})
        fieldnames: List[str] = []
        for row in rows:
            for key in row:
                if key not in fieldnames:
                    fieldnames.append(key)
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=fieldnames, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        _write(buf.getvalue())
    else:
        blocks = []
        for r in results:
            if isinstance(r, Barcode):
                blocks.append(f"一維條碼  期別 {r.period_label}  發票號碼 {r.number}  隨機碼 {r.random_code}")
            else:
                blocks.append(str(r))
        _write("\n\n".join(blocks))
    return 1 if failures else 0


def _cmd_check(args: argparse.Namespace) -> int:
    numbers = _load_numbers(args)
    groups = _collect_codes(args)
    results = []
    exit_code = 0
    for group in groups:
        label = group[0]
        target: Union[Invoice, Barcode, str]
        try:
            target = parse_any(*group) if (len(group) > 1 or len(group[0]) > 10) else group[0]
            if not isinstance(target, str):
                label = target.number
            prize = check(target, numbers, verify_period=not args.no_verify_period)
            results.append({"number": label, "prize": prize.to_dict() if prize else None, "error": None})
        except (PeriodMismatchError, InvoiceFormatError, ValueError) as exc:
            results.append({"number": label[:20], "prize": None, "error": str(exc)})
            exit_code = 1

    if args.json:
        _write(json.dumps({"period": numbers.period, "results": results}, indent=2, ensure_ascii=False))
    else:
        lines = [f"期別 {numbers.period_label}"]
        for r in results:
            if r["error"]:
                lines.append(f"  {r['number']}: 無法對獎（{r['error']}）")
            elif r["prize"]:
                p = r["prize"]
                lines.append(f"  {r['number']}: 中 {p['name']} NT${p['amount']:,}（對中 {p['matched']}）")
            else:
                lines.append(f"  {r['number']}: 沒中")
        _write("\n".join(lines))
    return exit_code


def _cmd_ubn(args: argparse.Namespace) -> int:
    bad = 0
    for ubn in args.ubns:
        ok = is_valid_ubn(ubn)
        bad += not ok
        print(f"{ubn}: {'valid' if ok else 'INVALID'}")
    return 1 if bad else 0


def run(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_streams()
    if args.command == "parse":
        return _cmd_parse(args)
    if args.command == "check":
        return _cmd_check(args)
    if args.command == "ubn":
        return _cmd_ubn(args)
    parser.print_help()
    return 2


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Console-script entry point. Returns the process exit code."""
    try:
        return run(argv)
    except InvoiceError as exc:
        print(f"einvoice-tw: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # pragma: no cover
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:  # pragma: no cover
        return 130
    except (OSError, UnicodeError, ValueError) as exc:
        print(f"einvoice-tw: error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # pragma: no cover - last resort
        if os.environ.get("EINVOICE_TW_DEBUG"):
            raise
        print(f"einvoice-tw: error: unexpected {type(exc).__name__}: {exc} (set EINVOICE_TW_DEBUG=1 for a traceback)", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
