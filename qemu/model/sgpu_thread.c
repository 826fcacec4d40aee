/* SPDX-License-Identifier: MIT */
#include "midgard_isa.h"
