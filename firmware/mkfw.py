#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Wraps assembled Midgard code (sleipnir-as's output) into a self-test
firmware file: the 64-byte "SLFW" header of firmware/README.md, then the
code. The driver reads it with kernel/sleipnir_selftest_fw.h."""
import argparse
import struct
import sys
import zlib

MAGIC = b"SLFW"
VERSION = (1, 0)
HEADER_BYTES = 64
KIND_SELFTEST = 1


def number(text):
    value = int(text, 0)
    if not 0 <= value < 1 << 32:
        raise argparse.ArgumentTypeError(f"{text} is not a 32-bit unsigned number")
    return value


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("code", help="the assembled shader (sleipnir-as -o)")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--work-registers", type=number, required=True)
    ap.add_argument("--group-size", type=number, required=True)
    ap.add_argument("--group-count", type=number, required=True)
    ap.add_argument("--seed", type=number, required=True)
    ap.add_argument("--multiplier", type=number, required=True)
    args = ap.parse_args()

    with open(args.code, "rb") as f:
        code = f.read()
    if not code or len(code) % 16 or code[-16:] != bytes(16):
        sys.exit(f"mkfw: {args.code}: not sleipnir-as output "
                 "(a multiple of 16 bytes ending in 16 zero bytes)")

    size = HEADER_BYTES + len(code)
    header = struct.pack("<4sHHIIIIIIIIIII12x", MAGIC, *VERSION, HEADER_BYTES,
                         size, 0, KIND_SELFTEST, HEADER_BYTES, len(code),
                         args.work_registers, args.group_size,
                         args.group_count, args.seed, args.multiplier)
    assert len(header) == HEADER_BYTES
    crc = zlib.crc32(header + code)
    header = header[:0x10] + struct.pack("<I", crc) + header[0x14:]
    with open(args.output, "wb") as f:
        f.write(header + code)


if __name__ == "__main__":
    main()
