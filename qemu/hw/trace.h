/* SPDX-License-Identifier: GPL-2.0-or-later */
/* QEMU's per-directory trace header: the generated one for this folder. */
#include "trace/trace-hw_misc_sleipnir.h"
