#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Turns dts/overlays/qemu-virt-gpu.dtso into the C header the QEMU glue
(qemu/hw/sleipnir_virt_dt.c) applies to the virt board's device tree.

    gen-qemu-virt-header.py OVERLAY.dtso OUT.h

The overlay is compiled with dtc (-@, warnings are errors) and emitted as a
byte array, with the facts the board code needs to place the device taken
from the same node: its path, its register window and its three SPIs. The
overlay must add one gpu@ node at the root, with a 2+2-cell reg and the
interrupts job, mmu and gpu as consecutive level-high GIC SPIs (the way
QEMU wires them). Anything else is an error naming the file.

scripts/build-qemu.sh runs it at every QEMU build; dts/check.sh runs it
too. Debian's python3 (for python3-libfdt), hence the fixed interpreter.
"""
import os
import subprocess
import sys
import tempfile

import libfdt

GIC_SPI = 0
IRQ_TYPE_LEVEL_HIGH = 4
IRQ_NAMES = ("job", "mmu", "gpu")


class OverlayError(Exception):
    pass


def compile_overlay(src):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "overlay.dtbo")
        # Any warning fails: the node must compile clean.
        run = subprocess.run(["dtc", "-@", "-I", "dts", "-O", "dtb",
                              "-o", out, src], capture_output=True, text=True)
        if run.returncode != 0 or run.stderr.strip():
            raise OverlayError("dtc: " + (run.stderr.strip() or
                                          f"exit status {run.returncode}"))
        with open(out, "rb") as f:
            return f.read()


def cells(prop):
    raw = bytes(prop)
    if len(raw) % 4:
        raise OverlayError(f"{prop.name} is not a list of cells")
    return [int.from_bytes(raw[i:i + 4], "big") for i in range(0, len(raw), 4)]


def strings(prop):
    raw = bytes(prop)
    if not raw.endswith(b"\0"):
        raise OverlayError(f"{prop.name} is not a string list")
    return [s.decode() for s in raw[:-1].split(b"\0")]


def subnodes(fdt, parent):
    off = fdt.first_subnode(parent, libfdt.QUIET_NOTFOUND)
    while off >= 0:
        yield off
        off = fdt.next_subnode(off, libfdt.QUIET_NOTFOUND)


def find_gpu_node(fdt):
    """The one gpu@ node of the overlay's one fragment, which targets /."""
    fragments = [o for o in subnodes(fdt, 0)
                 if fdt.get_name(o).startswith("fragment@")]
    if len(fragments) != 1:
        raise OverlayError(f"{len(fragments)} fragments, expected 1")
    frag = fragments[0]
    target = fdt.getprop(frag, "target-path", libfdt.QUIET_NOTFOUND)
    if target == -libfdt.NOTFOUND or target.as_str() != "/":
        raise OverlayError("the fragment must target the root (&{/})")
    body = fdt.subnode_offset(frag, "__overlay__")
    nodes = list(subnodes(fdt, body))
    names = [fdt.get_name(o) for o in nodes]
    if len(nodes) != 1 or not names[0].startswith("gpu@"):
        raise OverlayError(f"nodes {names}: expected one gpu@<address>")
    return nodes[0], names[0]


def describe(blob):
    fdt = libfdt.FdtRo(blob)
    node, name = find_gpu_node(fdt)
    reg = cells(fdt.getprop(node, "reg"))
    if len(reg) != 4:
        raise OverlayError("reg must be one <addr-hi addr-lo size-hi size-lo>")
    base = reg[0] << 32 | reg[1]
    size = reg[2] << 32 | reg[3]
    if name != f"gpu@{base:x}":
        raise OverlayError(f"node {name} does not match reg base {base:#x}")
    irq_names = strings(fdt.getprop(node, "interrupt-names"))
    if tuple(irq_names) != IRQ_NAMES:
        raise OverlayError(f"interrupt-names {irq_names}, expected {IRQ_NAMES}")
    irqs = cells(fdt.getprop(node, "interrupts"))
    if len(irqs) != 9:
        raise OverlayError("interrupts must be three 3-cell GIC specifiers")
    spis = []
    for i in range(3):
        kind, number, flags = irqs[3 * i:3 * i + 3]
        if kind != GIC_SPI or flags != IRQ_TYPE_LEVEL_HIGH:
            raise OverlayError(f"interrupt {IRQ_NAMES[i]} is not a "
                               "level-high SPI")
        spis.append(number)
    if spis != [spis[0], spis[0] + 1, spis[0] + 2]:
        raise OverlayError(f"SPIs {spis} are not consecutive")
    return {"path": "/" + name, "base": base, "size": size, "spi": spis[0]}


def header(src, blob, facts):
    rel = os.path.relpath(src, os.path.join(os.path.dirname(__file__), ".."))
    lines = [
        "/* SPDX-License-Identifier: GPL-2.0-or-later */",
        f"/* Generated from {rel} by dts/gen-qemu-virt-header.py: do not edit. */",
        "#ifndef SLEIPNIR_VIRT_GPU_NODE_H",
        "#define SLEIPNIR_VIRT_GPU_NODE_H",
        "",
        f'#define SLEIPNIR_VIRT_GPU_PATH "{facts["path"]}"',
        f'#define SLEIPNIR_VIRT_GPU_BASE 0x{facts["base"]:08x}ULL',
        f'#define SLEIPNIR_VIRT_GPU_SIZE 0x{facts["size"]:08x}ULL',
        "/* The job interrupt's SPI; mmu and gpu follow it. */",
        f'#define SLEIPNIR_VIRT_GPU_SPI {facts["spi"]}',
        "",
        "/* The compiled overlay (dtc -@), to give to fdt_overlay_apply(). */",
        "#define SLEIPNIR_VIRT_GPU_DTBO { \\",
    ]
    for i in range(0, len(blob), 12):
        chunk = ", ".join(f"0x{b:02x}" for b in blob[i:i + 12])
        lines.append(f"    {chunk}, \\")
    lines += ["}", "", "#endif", ""]
    return "\n".join(lines)


def main(argv):
    if len(argv) != 3:
        sys.exit(f"usage: {argv[0]} OVERLAY.dtso OUT.h")
    src, out = argv[1], argv[2]
    try:
        blob = compile_overlay(src)
        facts = describe(blob)
    except (OverlayError, libfdt.FdtException) as e:
        sys.exit(f"{src}: {e}")
    text = header(src, blob, facts)
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out)


if __name__ == "__main__":
    main(sys.argv)
