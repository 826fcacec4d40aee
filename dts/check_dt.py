#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The device-tree checks of make check (dts/check.sh runs this).

- The binding passes dt-doc-validate, and its examples compile and pass it.
- Every overlay in dts/overlays/ compiles with dtc -@ without a warning.
- Each SoC overlay, applied with fdtoverlay to real boards' trees (Linux
  6.1's, compiled here with -@), gives a GPU node that our binding and the
  kernel's own arm,mali-midgard binding both accept, whose properties are
  those the SoC's .dtsi has, with its OPP table's points, the board's
  supply and status okay; also on a board tree whose GPU node was removed.
- QEMU's virt board (build/board/qemu-system-aarch64, dumpdtb) holds exactly
  the node of dts/overlays/qemu-virt-gpu.dtso, labels resolved, for each
  product, changes nothing else in the tree, and passes dt-validate.
- The driver's of_match table (kernel/sleipnir_drv.c) names exactly the
  binding's generic compatibles.
- Negative controls: broken nodes fail validation, and the QEMU header
  generator rejects an overlay QEMU could not wire.

Debian's python3 for python3-libfdt and dt-schema's ruamel.yaml.
Prints "device-tree: N passed, N failed".
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import libfdt
from ruamel.yaml import YAML

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINDINGS = os.path.join(ROOT, "dts/bindings")
BINDING = os.path.join(BINDINGS, "gpu/arm,mali-midgard-sleipnir.yaml")
OVERLAYS = os.path.join(ROOT, "dts/overlays")
VIRT_OVERLAY = os.path.join(OVERLAYS, "qemu-virt-gpu.dtso")
GENERATOR = os.path.join(ROOT, "dts/gen-qemu-virt-header.py")
DRIVER = os.path.join(ROOT, "kernel/sleipnir_drv.c")
UPSTREAM_BINDING = "Documentation/devicetree/bindings/gpu/arm,mali-midgard.yaml"

# The real boards each SoC overlay is applied to: one whose tree already
# enables the GPU and one that leaves it disabled. The first of each list
# is also tried with its GPU node removed.
BOARDS = {
    "rk3399-gpu.dtso": ["arch/arm64/boot/dts/rockchip/rk3399-rockpro64.dts",
                        "arch/arm64/boot/dts/rockchip/rk3399-evb.dts"],
    "rk3288-gpu.dtso": ["arch/arm/boot/dts/rk3288-tinker-s.dts",
                        "arch/arm/boot/dts/rk3288-popmetal.dts"],
    "exynos5422-gpu.dtso": ["arch/arm/boot/dts/exynos5422-odroidxu4.dts",
                            "arch/arm/boot/dts/exynos5422-odroidhc1.dts"],
}
QEMU_PRODUCTS = ["t860", "t760", "t628"]
# The properties of the SoC's own node that the overlay does not restate
# byte for byte: it brings its own OPP table and turns the node on.
NOT_RESTATED = {"status", "phandle", "operating-points-v2"}


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.failures = []

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok    {name}")
        else:
            self.failed += 1
            self.failures.append(name)
            print(f"FAIL  {name}" + (f": {detail}" if detail else ""))
        return ok


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def compile_dts(src, out, include, quiet=False):
    """cpp then dtc -@; returns the warnings and errors (empty when clean)."""
    pre = out + ".pre.dts"
    cpp = run(["cpp", "-nostdinc", "-undef", "-D__DTS__", "-x",
               "assembler-with-cpp", "-I", include,
               "-I", os.path.dirname(src), src, "-o", pre])
    if cpp.returncode != 0 or cpp.stderr.strip():
        return "cpp: " + cpp.stderr.strip()
    dtc = run(["dtc", "-@"] + (["-q"] if quiet else []) +
              ["-I", "dts", "-O", "dtb", "-o", out, pre])
    if dtc.returncode != 0 and not dtc.stderr.strip():
        return f"dtc: exit status {dtc.returncode}"
    return dtc.stderr.strip()


def load(path):
    with open(path, "rb") as f:
        return libfdt.Fdt(f.read())


def subnodes(fdt, parent):
    off = fdt.first_subnode(parent, libfdt.QUIET_NOTFOUND)
    while off >= 0:
        yield off
        off = fdt.next_subnode(off, libfdt.QUIET_NOTFOUND)


def props(fdt, node):
    out = {}
    off = fdt.first_property_offset(node, libfdt.QUIET_NOTFOUND)
    while off >= 0:
        prop = fdt.get_property_by_offset(off)
        out[prop.name] = bytes(prop)
        off = fdt.next_property_offset(off, libfdt.QUIET_NOTFOUND)
    return out


def cell(raw, index):
    return int.from_bytes(raw[4 * index:4 * index + 4], "big")


def path_of(fdt, node):
    names = []
    while node > 0:
        names.append(fdt.get_name(node))
        node = fdt.parent_offset(node)
    return "/" + "/".join(reversed(names))


def dump_tree(fdt, node=0):
    """{path: {prop: bytes}} of a subtree."""
    out = {path_of(fdt, node): props(fdt, node)}
    for sub in subnodes(fdt, node):
        out.update(dump_tree(fdt, sub))
    return out


def overlay_gpu(ovl):
    """(target path, gpu node offset) of an overlay's one fragment."""
    frag = next(o for o in subnodes(ovl, 0)
                if ovl.get_name(o).startswith("fragment@"))
    target = ovl.getprop(frag, "target-path").as_str()
    body = ovl.subnode_offset(frag, "__overlay__")
    gpu = next(o for o in subnodes(ovl, body)
               if ovl.get_name(o).startswith("gpu@"))
    return target.rstrip("/") + "/" + ovl.get_name(gpu), gpu


def opp_points(fdt, table):
    return sorted((bytes(fdt.getprop(o, "opp-hz")),
                   bytes(fdt.getprop(o, "opp-microvolt")))
                  for o in subnodes(fdt, table))


def validate(dtbs, schema, limit=None):
    """dt-validate over many DTBs at once: {dtb: (matched paths, errors)}."""
    cmd = ["dt-validate", "-M", "-s", schema]
    if limit:
        cmd += ["-l", limit]
    res = run(cmd + dtbs)
    out = {d: (set(), []) for d in dtbs}
    current = None
    for line in (res.stdout + res.stderr).splitlines():
        if line.startswith(("\t", " ")):
            if current is not None and not line.strip().startswith(("From schema", "http")):
                current.append(line.strip())
            continue
        current = None
        for d in dtbs:
            if line.startswith(d + ": "):
                rest = line[len(d) + 2:]
                m = re.match(r"(\S+): matched on schema", rest)
                if m:
                    out[d][0].add(m.group(1))
                else:
                    out[d][1].append(rest)
                    current = out[d][1]
                break
        else:
            if line.strip():
                # A line naming no DTB: dt-validate itself failed.
                for d in dtbs:
                    out[d][1].append(line)
    return out


def check_binding(c, out, linux):
    res = run(["dt-doc-validate", "-u", BINDINGS, BINDING])
    c.check("binding: dt-doc-validate", res.returncode == 0 and
            not (res.stdout + res.stderr).strip(), (res.stdout + res.stderr).strip())
    schema = os.path.join(out, "sleipnir-schema.json")
    with open(schema, "w") as f:
        res = subprocess.run(["dt-mk-schema", "-j", BINDINGS], stdout=f,
                             stderr=subprocess.PIPE, text=True)
    c.check("binding: dt-mk-schema", res.returncode == 0 and not res.stderr.strip(),
            res.stderr.strip())
    up_dir = os.path.join(out, "upstream-bindings/gpu")
    os.makedirs(up_dir, exist_ok=True)
    shutil.copy(os.path.join(linux, UPSTREAM_BINDING), up_dir)
    upstream = os.path.join(out, "upstream-schema.json")
    with open(upstream, "w") as f:
        res = subprocess.run(["dt-mk-schema", "-j", os.path.dirname(up_dir)],
                             stdout=f, stderr=subprocess.PIPE, text=True)
    c.check("binding: Linux 6.1's arm,mali-midgard.yaml processed",
            res.returncode == 0, res.stderr.strip())
    # The examples, as the kernel's dt_binding_check builds them.
    ex = os.path.join(out, "binding-examples.dts")
    with open(ex, "w") as f:
        res = subprocess.run(["dt-extract-example", BINDING], stdout=f,
                             stderr=subprocess.PIPE, text=True)
    err = res.stderr.strip() or compile_dts(ex, ex + ".dtb",
                                            os.path.join(linux, "include"))
    c.check("binding: examples compile without warnings", not err, err)
    return schema, upstream, ex + ".dtb"


def check_overlays(c, out, linux):
    """Compiles every overlay; returns {name: dtbo path}."""
    built = {}
    for name in sorted(os.listdir(OVERLAYS)):
        if not name.endswith(".dtso"):
            continue
        dtbo = os.path.join(out, name[:-5] + ".dtbo")
        err = compile_dts(os.path.join(OVERLAYS, name), dtbo,
                          os.path.join(linux, "include"))
        if c.check(f"dtc -@ {name}: no warnings", not err, err):
            built[name] = dtbo
    c.check("every SoC overlay has boards to be checked on",
            set(built) - {"qemu-virt-gpu.dtso"} == set(BOARDS),
            f"overlays {sorted(built)} vs {sorted(BOARDS)}")
    return built


def check_soc_overlay(c, out, linux, name, dtbo):
    """Applies one SoC overlay to its boards; returns the DTBs to validate."""
    ovl = load(dtbo)
    gpu_path, ovl_gpu = overlay_gpu(ovl)
    results = []
    for i, board in enumerate(BOARDS[name]):
        tag = os.path.basename(board)[:-4]
        base = os.path.join(out, tag + ".dtb")
        err = compile_dts(os.path.join(linux, board), base,
                          os.path.join(linux, "include"), quiet=True)
        if not c.check(f"{tag}: Linux 6.1 tree compiles", not err, err):
            continue
        variants = [(tag, base)]
        if i == 0:
            stripped = os.path.join(out, tag + "-nogpu.dtb")
            shutil.copy(base, stripped)
            res = run(["fdtput", "-r", stripped, gpu_path])
            c.check(f"{tag}: GPU node removed for the no-node case",
                    res.returncode == 0, res.stderr.strip())
            variants.append((tag + "-nogpu", stripped))
        upstream = load(base)
        up_node = upstream.path_offset(gpu_path, libfdt.QUIET_NOTFOUND)
        for vtag, vbase in variants:
            result = os.path.join(out, f"{vtag}+{name[:-5]}.dtb")
            res = run(["fdtoverlay", "-i", vbase, "-o", result, dtbo])
            if not c.check(f"{vtag} + {name}: fdtoverlay applies",
                           res.returncode == 0 and not res.stderr.strip(),
                           res.stderr.strip()):
                continue
            results.append(result)
            fdt = load(result)
            node = fdt.path_offset(gpu_path)
            got = props(fdt, node)
            c.check(f"{vtag} + {name}: {gpu_path} is okay",
                    got.get("status") == b"okay\0", repr(got.get("status")))
            supply = fdt.node_offset_by_phandle(cell(got["mali-supply"], 0),
                                                libfdt.QUIET_NOTFOUND)
            c.check(f"{vtag} + {name}: mali-supply is a regulator",
                    supply >= 0 and fdt.getprop(supply, "regulator-name",
                                                libfdt.QUIET_NOTFOUND) != -libfdt.NOTFOUND)
            table = fdt.node_offset_by_phandle(
                cell(got["operating-points-v2"], 0), libfdt.QUIET_NOTFOUND)
            c.check(f"{vtag} + {name}: operating-points-v2 is its own table",
                    table >= 0 and fdt.parent_offset(table) == node and
                    fdt.getprop(table, "compatible").as_str() == "operating-points-v2")
            if up_node < 0 or vtag.endswith("-nogpu"):
                continue
            # The SoC's own facts, from Linux's .dtsi as compiled for the board.
            theirs = props(upstream, up_node)
            differ = [p for p in theirs if p not in NOT_RESTATED and
                      theirs[p] != got.get(p)]
            c.check(f"{vtag} + {name}: restates Linux's node", not differ,
                    f"differs in {differ}")
            if "operating-points-v2" in theirs:
                # Boards without the SoC's OPP include have none to compare.
                their_opp = upstream.node_offset_by_phandle(
                    cell(theirs["operating-points-v2"], 0))
                c.check(f"{vtag} + {name}: OPPs are Linux's",
                        opp_points(upstream, their_opp) == opp_points(fdt, table))
        if i == 0 and len(results) >= 2:
            # Without the SoC's node, the overlay alone gives the same node.
            full = load(results[-2])
            bare = load(results[-1])
            a = {k: v for k, v in dump_tree(full, full.path_offset(gpu_path)).items()}
            b = {k: v for k, v in dump_tree(bare, bare.path_offset(gpu_path)).items()}
            for t in (a, b):
                for p in t.values():
                    for k in ("phandle", "operating-points-v2", "interrupt-parent"):
                        p.pop(k, None)
            c.check(f"{tag}: the overlay alone gives the same node", a == b)
    return results


def qemu_dump(qemu, out, product):
    dtb = os.path.join(out, f"qemu-virt-{product}.dtb")
    # A fixed -seed: /chosen's rng-seed and kaslr-seed then match run to run.
    res = run([qemu, "-M", f"virt,gpu={product},dumpdtb={dtb}", "-seed", "1",
               "-cpu", "cortex-a53", "-m", "512M", "-nographic", "-nodefaults"],
              timeout=60)
    return dtb, res


def check_qemu(c, out, qemu, virt_dtbo):
    """QEMU's tree against the overlay; returns the DTBs to validate."""
    if not c.check("QEMU board binary present", os.access(qemu, os.X_OK),
                   f"{qemu}: run make build"):
        return []
    plain, res = qemu_dump(qemu, out, "none")
    if not c.check("QEMU virt,gpu=none dumps its tree", res.returncode == 0,
                   res.stderr.strip()):
        return []
    plain_fdt = load(plain)
    ovl = load(virt_dtbo)
    gpu_path, ovl_gpu = overlay_gpu(ovl)
    c.check("QEMU virt,gpu=none has no GPU node",
            plain_fdt.path_offset(gpu_path, libfdt.QUIET_NOTFOUND) < 0)
    want = props(ovl, ovl_gpu)
    # Where the overlay left a label to resolve: {(prop, offset): label}.
    fixups = {}
    fix = ovl.path_offset("/__fixups__")
    for label, raw in props(ovl, fix).items():
        for ref in raw.rstrip(b"\0").split(b"\0"):
            path, prop, offset = ref.decode().rsplit(":", 2)
            fixups[(prop, int(offset))] = label
    results = []
    for product in QEMU_PRODUCTS:
        dtb, res = qemu_dump(qemu, out, product)
        if not c.check(f"QEMU virt,gpu={product} dumps its tree",
                       res.returncode == 0, res.stderr.strip()):
            continue
        results.append(dtb)
        fdt = load(dtb)
        node = fdt.path_offset(gpu_path, libfdt.QUIET_NOTFOUND)
        if not c.check(f"QEMU gpu={product}: {gpu_path} present", node >= 0):
            continue
        # The labels as the glue resolves them.
        labels = {"gic": cell(bytes(fdt.getprop(0, "interrupt-parent")), 0),
                  "apb_pclk": fdt.get_phandle(fdt.path_offset("/apb-pclk"))}
        expect = {}
        for prop, raw in want.items():
            raw = bytearray(raw)
            for (fprop, offset), label in fixups.items():
                if fprop == prop:
                    raw[offset:offset + 4] = labels[label].to_bytes(4, "big")
            expect[prop] = bytes(raw)
        expect["compatible"] = b"sleipnir,virt-mali\0" + \
            f"arm,mali-{product}\0".encode()
        got = props(fdt, node)
        differ = sorted(p for p in set(got) | set(expect)
                        if got.get(p) != expect.get(p))
        c.check(f"QEMU gpu={product}: node is exactly the overlay's",
                not differ and not list(subnodes(fdt, node)),
                f"differs in {differ} (QEMU built from an older overlay? "
                "make build rebuilds it)")
        # Nothing else moved: the tree less the node is the plain board's.
        rest = dump_tree(fdt)
        rest.pop(gpu_path)
        c.check(f"QEMU gpu={product}: the rest of the tree is stock virt",
                rest == dump_tree(plain_fdt))
    return results


def check_of_match(c):
    with open(BINDING) as f:
        binding = YAML(typ="safe").load(f)
    generic = set()
    for alt in binding["properties"]["compatible"]["oneOf"]:
        last = alt["items"][-1]
        generic.update([last["const"]] if "const" in last else last["enum"])
    with open(DRIVER) as f:
        src = f.read()
    table = re.search(r"of_device_id sleipnir_of_match\[\] = \{(.*?)\n\};", src, re.S)
    driver = set(re.findall(r'\.compatible = "([^"]+)"', table.group(1))) if table else set()
    c.check("kernel/sleipnir_drv.c's of_match names the binding's generic compatibles",
            driver == generic, f"driver {sorted(driver)}, binding {sorted(generic)}")


def check_generator_rejects(c, out):
    """The QEMU header generator refuses interrupts QEMU cannot wire."""
    with open(VIRT_OVERLAY) as f:
        text = f.read()
    bad = os.path.join(out, "virt-bad-irqs.dtso")
    swapped = text.replace("<0 10 4>, <0 11 4>, <0 12 4>",
                           "<0 10 4>, <0 12 4>, <0 11 4>")
    with open(bad, "w") as f:
        f.write(swapped)
    res = run([GENERATOR, bad, os.path.join(out, "bad.h")])
    c.check("generator rejects SPIs out of order",
            swapped != text and res.returncode != 0 and "consecutive" in res.stderr,
            res.stderr.strip())
    res = run([GENERATOR, VIRT_OVERLAY, os.path.join(out, "sleipnir_virt_gpu_node.h")])
    c.check("generator accepts dts/overlays/qemu-virt-gpu.dtso",
            res.returncode == 0, res.stderr.strip())


def broken_copies(out, good):
    """DTBs that must fail: (name, dtb, the node path)."""
    bad = []
    for dtb, path, prop, value in good:
        copy = dtb[:-4] + f"-bad-{prop}.dtb"
        shutil.copy(dtb, copy)
        subprocess.run(["fdtput", "-t", "s", copy, path, prop] + value, check=True)
        bad.append((f"{os.path.basename(dtb)} with {prop} {' '.join(value)}", copy))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--linux", required=True, help="scripts/fetch-linux-source.sh dts's folder")
    ap.add_argument("--qemu", required=True, help="the board's qemu-system-aarch64")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    c = Checks()

    schema, upstream, examples = check_binding(c, out, args.linux)
    built = check_overlays(c, out, args.linux)
    soc = []
    for name in sorted(BOARDS):
        if name in built:
            soc += check_soc_overlay(c, out, args.linux, name, built[name])
    virt = check_qemu(c, out, args.qemu, built[os.path.basename(VIRT_OVERLAY)]) \
        if os.path.basename(VIRT_OVERLAY) in built else []
    check_of_match(c)
    check_generator_rejects(c, out)

    # Our binding over every DTB; each must match its GPU node, no errors.
    ours = validate([examples] + soc + virt, schema, "arm,mali-midgard-sleipnir")
    for dtb, (matched, errors) in ours.items():
        c.check(f"dt-validate {os.path.basename(dtb)}",
                any("gpu@" in m for m in matched) and not errors,
                f"matched {sorted(matched)}; " + "; ".join(errors))
    # The kernel's own binding accepts the SoC nodes too.
    theirs = validate(soc, upstream, "arm,mali-midgard")
    for dtb, (matched, errors) in theirs.items():
        c.check(f"Linux's binding accepts {os.path.basename(dtb)}",
                any("gpu@" in m for m in matched) and not errors,
                f"matched {sorted(matched)}; " + "; ".join(errors))
    # QEMU's whole tree under every schema dt-schema ships, ours included:
    # the GPU adds no complaint to those stock virt already draws (QEMU's
    # platform-bus node has one).
    if virt:
        plain = os.path.join(out, "qemu-virt-none.dtb")
        full = validate([plain] + virt, schema)
        stock = set(full[plain][1])
        for dtb in virt:
            new = [e for e in full[dtb][1] if e not in stock]
            c.check(f"dt-validate (all schemas) {os.path.basename(dtb)}: "
                    f"nothing beyond stock virt's {len(stock)}", not new,
                    "; ".join(new))

    # Negative controls: the same validation must catch broken nodes.
    good = []
    if soc:
        good.append((soc[0], overlay_gpu(load(built[sorted(BOARDS)[0]]))[0],
                     "interrupt-names", ["mmu", "job", "gpu"]))
    if virt:
        good.append((virt[0], overlay_gpu(load(built["qemu-virt-gpu.dtso"]))[0],
                     "compatible", ["arm,mali-t860", "arm,mali-midgard"]))
    bad = broken_copies(out, good)
    caught = validate([d for _, d in bad], schema, "arm,mali-midgard-sleipnir")
    for what, dtb in bad:
        c.check(f"dt-validate rejects {what}", bool(caught[dtb][1]))

    # Again at the end, where make check's excerpt of the output looks.
    for name in c.failures:
        print(f"failed: {name}")
    print(f"device-tree: {c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
