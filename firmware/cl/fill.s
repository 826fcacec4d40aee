; SPDX-License-Identifier: MIT
;
; sl_fill: clEnqueueFillBuffer on the GPU (userspace/icd/icd_builtin.c
; launches it; firmware/cl/README.md has the ABI). One work-item per 64
; bytes: work-item i covers [64 i, 64 i + 64) from base, a 16-aligned
; address at or below the first byte to fill. The runtime writes the
; pattern, whatever its size (1 to 128 bytes, a power of two), as 128
; bytes laid out for base: byte j is what belongs at base + j (mod 128).
; A block wholly inside the range stores four 128-bit rows of that table
; (rows 0-3 for even blocks, 4-7 for odd ones); the partial blocks at
; either end store byte by byte.
;
; Argument image (also uniform buffer 0):
;   bytes 0-15, pushed as r23 = { base, head, end, 0 }: the range to fill
;                                 is [base + head, base + end)
;   bytes 16-143: the pattern table
; Work registers:
;   r0 = { id, lo, hi, odd: 1 for odd blocks }
;   r1 = { a: the block's offset from base, scratch, scratch, a + 64 }
ldst
	mov r0.xyz, global_id.xyzx
alu
	vmul.imul.i32 r1.x, r0.xxxx, #64             ; a
	sadd.iand.i32 r0.w, r0.x, #1                 ; odd
alu
	sadd.umax.i32 r0.y, r1.x, r23.y              ; lo = max(a, head)
	vadd.iadd.i32 r1.w, r1.xxxx, #64
	smul.umin.i32 r0.z, r1.w, r23.z              ; hi = min(a + 64, end)
alu
	smul.ule.i32 r31.w, r0.z, r0.y               ; past the end
	br.true done
alu
	vmul.ieq.i32 r1.y, r0.yyyy, r1.xxxx          ; starts at the block
	sadd.ieq.i32 r1.z, r0.z, r1.w                ; ends with it
	smul.iand.i32 r31.w, r1.y, r1.z
	br.true whole
bytes:
alu
	vmul.iadd.i32 r26.x, r0.yyyy, r23.xxxx       ; the byte's address
	sadd.iand.i32 r26.y, r0.y, #127              ; its place in the table
ldst
	ld_ubo.u8 r27.x, ubo(0)[r26.y + 16]
ldst
	st.u8 r27.xxxx, [r26.x]
alu
	sadd.iadd.i32 r0.y, r0.y, #1
	smul.ult.i32 r31.w, r0.y, r0.z
	br.true bytes
alu
	br done
whole:
alu
	vmul.iadd.i32 r26.x, r1.xxxx, r23.xxxx
	sadd.imov.i32 r26.y, r0.w
ldst
	ld_ubo.128 r27.xyzw, ubo(0)[r26.y << 6 + 16]
ldst
	st.128 r27.xyzw, [r26.x]
ldst
	ld_ubo.128 r27.xyzw, ubo(0)[r26.y << 6 + 32]
ldst
	st.128 r27.xyzw, [r26.x + 16]
ldst
	ld_ubo.128 r27.xyzw, ubo(0)[r26.y << 6 + 48]
ldst
	st.128 r27.xyzw, [r26.x + 32]
ldst
	ld_ubo.128 r27.xyzw, ubo(0)[r26.y << 6 + 64]
ldst
	st.128 r27.xyzw, [r26.x + 48]
done:
alu
