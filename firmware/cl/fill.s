; SPDX-License-Identifier: MIT
;
; sl_fill: clEnqueueFillBuffer on the GPU (userspace/icd/icd_builtin.c
; launches it; firmware/cl/README.md has the ABI). One work-item per 256
; bytes: work-item i covers [256 i, 256 i + 256) from base, a 16-aligned
; address at or below the first byte to fill. The runtime writes the
; pattern, whatever its size (1 to 128 bytes, a power of two), as a table
; of 128 bytes laid out for base: byte j is what belongs at base + j
; (mod 128). A block wholly inside the range stores the table's eight
; 16-byte rows (pushed uniforms) twice, two 128-bit stores a bundle; the partial blocks at
; either end go 16 bytes at a time: 16 whole bytes as one row of the
; table, the others byte by byte.
;
; As in copy.s: addresses and store data in r26/r27 only, ALU reads of
; r26 are constants, the second ALU stage may use the first's results,
; 128-bit stores with a 32-bit index for the model's fast path.
;
; Argument image (also uniform buffer 0):
;   bytes 0-15, pushed as r23 = { base, head, end, 0 }: the range to fill
;                                 is [base + head, base + end)
;   bytes 16-143: the pattern table, also pushed: row k in r(22 - k)
; Work registers:
;   r0 = { a: the block's offset from base, lo, hi: its bytes to fill }
;   r1 = { q: the 16 bytes at hand, the next byte, the end of q's bytes,
;          a + 256 }
;   r2 = { scratch, q + 16, scratch, scratch }
ldst
	mov r0.xyz, global_id.xyzx
alu
	vmul.imul.i32 r0.x, r0.xxxx, #256            ; a
alu
	vmul.iadd.i32 r1.w, r0.xxxx, #256
	sadd.umax.i32 r0.y, r0.x, r23.y              ; lo = max(a, head)
	smul.umin.i32 r0.z, r1.w, r23.z              ; hi = min(a + 256, end)
alu
	smul.ule.i32 r31.w, r0.z, r0.y               ; past the end
	br.true done
alu
	vmul.ieq.i32 r1.y, r0.yyyy, r0.xxxx          ; starts at the block
	sadd.ieq.i32 r1.z, r0.z, r1.w                ; ends with it
	smul.iand.i32 r31.w, r1.y, r1.z
	br.true whole
alu
	sadd.iand.i32 r1.x, r0.y, #-16               ; q: lo's 16 bytes
quad:
alu
	vmul.iadd.i32 r2.y, r1.xxxx, #16
	sadd.umax.i32 r1.y, r1.x, r0.y               ; from max(q, lo)
	smul.umin.i32 r1.z, r2.y, r0.z               ; to min(q + 16, hi)
alu
	vmul.ieq.i32 r2.z, r1.yyyy, r1.xxxx          ; all 16 bytes
	sadd.ieq.i32 r2.w, r1.z, r2.y
	smul.iand.i32 r31.w, r2.z, r2.w
	br.true row
bytes:
alu
	vmul.iadd.i32 r26.x, r1.yyyy, r23.xxxx       ; the byte's address
	sadd.iand.i32 r26.y, r1.y, #127              ; its place in the table
ldst
	ld_ubo.u8 r27.x, ubo(0)[r26.y + 16]
ldst
	st.u8 r27.xxxx, [r26.x]
alu
	sadd.iadd.i32 r1.y, r1.y, #1
	smul.ult.i32 r31.w, r1.y, r1.z
	br.true bytes
next:
alu
	sadd.iadd.i32 r1.x, r1.x, #16
	smul.ult.i32 r31.w, r1.x, r0.z
	br.true quad
alu
	br done
row:
alu
	vmul.iadd.i32 r26.x, r1.xxxx, r23.xxxx
	sadd.iand.i32 r26.y, r1.x, #127              ; its row of the table
ldst
	ld_ubo.128 r27.xyzw, ubo(0)[r26.y + 16]
ldst
	st.128 r27.xyzw, [r26.x]
alu
	br next
whole:
alu
	vmul.iadd.i32 r26.x, r0.xxxx, r23.xxxx
	vadd.imov.i32 r27.xyzw, r22.xyzw
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32]
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 128]
alu
	vmul.imov.i32 r27.xyzw, r21.xyzw
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 16]
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 144]
alu
	vmul.imov.i32 r27.xyzw, r20.xyzw
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 32]
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 160]
alu
	vmul.imov.i32 r27.xyzw, r19.xyzw
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 48]
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 176]
alu
	vmul.imov.i32 r27.xyzw, r18.xyzw
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 64]
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 192]
alu
	vmul.imov.i32 r27.xyzw, r17.xyzw
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 80]
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 208]
alu
	vmul.imov.i32 r27.xyzw, r16.xyzw
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 96]
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 224]
alu
	vmul.imov.i32 r27.xyzw, r15.xyzw
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 112]
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 240]
done:
alu
