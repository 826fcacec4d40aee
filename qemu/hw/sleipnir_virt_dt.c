/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sleipnir GPU: puts the virt board's GPU node into the guest's device tree.
 *
 * The node is not built here property by property: it is Sleipnir's
 * dts/overlays/qemu-virt-gpu.dtso, compiled by scripts/build-qemu.sh into
 * sleipnir_virt_gpu_node.h, and applied with libfdt's overlay code. So the
 * node the guest sees is the one dts/ describes and dts/check.sh validates
 * against the binding (it compares QEMU's dumped tree with the overlay).
 */
#include "qemu/osdep.h"
#include <libfdt.h>
#include "sleipnir_virt_dt.h"

static const uint8_t sleipnir_virt_gpu_dtbo[] = SLEIPNIR_VIRT_GPU_DTBO;

/*
 * The overlay names the board's nodes by label, as a board .dts would;
 * QEMU's tree has no labels (no __symbols__), so this is the board's list.
 * A label the overlay uses and this list lacks makes the apply fail.
 */
static bool add_virt_symbols(void *fdt, int symbols, Error **errp)
{
    const fdt32_t *parent;
    int gic, err;
    char gic_path[64];

    /* The GIC is the root's interrupt parent, whichever version it is. */
    parent = fdt_getprop(fdt, 0, "interrupt-parent", NULL);
    gic = parent ? fdt_node_offset_by_phandle(fdt, fdt32_to_cpu(*parent))
                 : -FDT_ERR_NOTFOUND;
    if (gic < 0) {
        error_setg(errp, "virt device tree: no interrupt controller");
        return false;
    }
    err = fdt_get_path(fdt, gic, gic_path, sizeof(gic_path));
    if (!err) {
        err = fdt_setprop_string(fdt, symbols, "gic", gic_path);
    }
    if (!err) {
        err = fdt_setprop_string(fdt, symbols, "apb_pclk", "/apb-pclk");
    }
    if (err) {
        error_setg(errp, "virt device tree: labels: %s", fdt_strerror(err));
        return false;
    }
    return true;
}

/*
 * The overlay says arm,mali-t860; the machine may model another product.
 * Every arm,mali-t<N> string is replaced by the one for @product.
 */
static bool set_product(void *fdt, int node, const char *product, Error **errp)
{
    const char *compat;
    int len, err;
    g_autoptr(GString) out = g_string_new(NULL);

    compat = fdt_getprop(fdt, node, "compatible", &len);
    if (!compat || len <= 0 || compat[len - 1] != '\0') {
        error_setg(errp, "virt device tree: the GPU node has no compatible");
        return false;
    }
    for (const char *s = compat; s < compat + len; s += strlen(s) + 1) {
        if (g_str_has_prefix(s, "arm,mali-t")) {
            g_string_append_printf(out, "arm,mali-%s", product);
        } else {
            g_string_append(out, s);
        }
        g_string_append_c(out, '\0');
    }
    err = fdt_setprop(fdt, node, "compatible", out->str, out->len);
    if (err) {
        error_setg(errp, "virt device tree: compatible: %s",
                   fdt_strerror(err));
        return false;
    }
    return true;
}

bool sleipnir_virt_dt_add_gpu(void *fdt, const char *product, Error **errp)
{
    /* fdt_overlay_apply() consumes the overlay: work on a copy. */
    g_autofree void *overlay = g_memdup2(sleipnir_virt_gpu_dtbo,
                                         sizeof(sleipnir_virt_gpu_dtbo));
    int symbols, node, err;

    if (fdt_path_offset(fdt, "/__symbols__") >= 0) {
        error_setg(errp, "virt device tree: already has __symbols__");
        return false;
    }
    symbols = fdt_add_subnode(fdt, 0, "__symbols__");
    if (symbols < 0) {
        error_setg(errp, "virt device tree: %s", fdt_strerror(symbols));
        return false;
    }
    if (!add_virt_symbols(fdt, symbols, errp)) {
        return false;
    }
    err = fdt_overlay_apply(fdt, overlay);
    if (err) {
        /* On failure libfdt leaves the base tree unusable. */
        error_setg(errp, "applying dts/overlays/qemu-virt-gpu.dtso: %s",
                   fdt_strerror(err));
        return false;
    }
    /* The labels were only for the overlay: the guest's tree has none. */
    err = fdt_del_node(fdt, fdt_path_offset(fdt, "/__symbols__"));
    if (err) {
        error_setg(errp, "virt device tree: __symbols__: %s",
                   fdt_strerror(err));
        return false;
    }
    node = fdt_path_offset(fdt, SLEIPNIR_VIRT_GPU_PATH);
    if (node < 0) {
        error_setg(errp, "virt device tree: the overlay added no "
                   SLEIPNIR_VIRT_GPU_PATH);
        return false;
    }
    return set_product(fdt, node, product, errp);
}
