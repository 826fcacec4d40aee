; SPDX-License-Identifier: MIT
; A self-test that computes the wrong pattern: i * multiplier, the seed
; left out, so word 0 is 0 instead of the seed (tests of the FAILED path).
ldst
	mov r0.xyz, global_id.xyzx
	ld_ubo.128 r1.xyzw, ubo(0)[0]
alu
	vmul.imul.i32 r2.x, r0.xxxx, r1.wwww
alu
	vmul.imov.i32 r26.xy, r1.xyzw
	vadd.imov.i32 r27.x, r2.xxxx
	vlut.imov.i32 r27.y, r0.xxxx
ldst
	st.32 r27.xxxx, [r26.xy + r27.y.u32 << 2]
