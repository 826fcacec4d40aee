; SPDX-License-Identifier: MIT
; The self-test sleipnir.ko runs at probe (firmware/README.md): thread i
; writes i * multiplier + seed to word i of the output buffer. UBO 0 holds
; the output's address (64 bits), the seed and the multiplier, which the
; driver takes from this file's header; the CPU computes the same pattern.
; Work registers: r0-r2 (3, the header's count).
ldst
	mov r0.xyz, global_id.xyzx
	ld_ubo.128 r1.xyzw, ubo(0)[0]          ; r1.xy address, r1.z seed, r1.w multiplier
alu
	vmul.imul.i32 r2.x, r0.xxxx, r1.wwww   ; i * multiplier
alu
	vmul.imov.i32 r26.xy, r1.xyzw          ; the output's address
	vadd.iadd.i32 r27.x, r2.xxxx, r1.zzzz  ; + seed
	vlut.imov.i32 r27.y, r0.xxxx           ; i, the index
ldst
	st.32 r27.xxxx, [r26.xy + r27.y.u32 << 2]
