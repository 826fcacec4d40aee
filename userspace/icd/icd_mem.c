/* SPDX-License-Identifier: MIT */
/* Being written. */
#include "icd_cl.h"
