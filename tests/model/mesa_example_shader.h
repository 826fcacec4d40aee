/* SPDX-License-Identifier: MIT */
/*
 * The worked example of docs/hardware.md §5.13, as bytes that
 * Mesa 22.3's disassembler decodes: buf[gid.x] = gid.x, the buffer's
 * address in UBO 0 at offset 0. Three bundles (load/store, ALU, load/store;
 * first tag 5, 2 work registers) and the 16 bytes of padding the hardware
 * prefetches. An encoding reference independent of our assembler.
 */
#ifndef SLEIPNIR_MESA_EXAMPLE_SHADER_H
#define SLEIPNIR_MESA_EXAMPLE_SHADER_H

#include <stdint.h>

static const uint32_t mesa_example_shader[] = {
	0x48e01095, 0x00003830, 0x1c861ac0, 0x00004380,
	0x00220059, 0x68386c18, 0x0072027b, 0x027b03a0,
	0x0fae4072, 0x00000000, 0x00000000, 0x00000000,
	0x01e1c815, 0x00008940, 0x00000030, 0x00000000,
	0, 0, 0, 0,
};

#endif
