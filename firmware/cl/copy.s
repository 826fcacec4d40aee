; SPDX-License-Identifier: MIT
;
; sl_copy: clEnqueueCopyBuffer and clEnqueueCopyBufferRect on the GPU
; (userspace/icd/icd_builtin.c launches it; firmware/cl/README.md has the
; ABI). One work-item per 256 destination bytes of one row: global id x
; is the block in the row, y the row, z the slice. Blocks start
; 16-aligned, so a block wholly inside the row, whose source is 4-aligned
; too (the load/store unit's rule for 128-bit accesses), moves as sixteen
; 128-bit loads and stores. The other blocks go 16 bytes at a time: 16
; whole bytes as one 128-bit load and store when the source is 4-aligned,
; else as the five aligned words that hold them, shifted together; the
; bytes at the ends of a row one by one. Copies never overlap (OpenCL 1.2
; 5.2.2), so the order of work-items is free.
;
; Load/store addresses and store data can only be in r26/r27, and ALU
; reads of r26 read the bundle's constants: addresses are made in work
; registers and copied to r26 just before use; data goes through r27, a
; load and its store in bundles of their own. The 128-bit accesses name a
; 32-bit index (zero.x.u32, not the default zero.x.u64): the model's
; lockstep engine runs only such plain accesses on its fast path. In an
; ALU bundle the second stage (VADD, SMUL, VLUT, the branch) may use the
; first's (VMUL, SADD) results; the units of one stage are independent
; (docs/hardware.md 5.2).
;
; Pushed arguments (no sysvals: the runtime launches without an offset):
;   r23 = { dst, src, width, dst_row_pitch }   (dst, src: first byte)
;   r22 = { dst_slice_pitch, src_row_pitch, src_slice_pitch, 0 }
; Work registers:
;   r0 = { a: the block's first byte, lo, hi: the bytes of it in the row,
;          delta: source minus destination address }
;   r1 = { d: the row's first byte, s: the source row's, e: the row's end,
;          a + 256 }; then, in a partial block, { q: the 16 bytes at hand,
;          the next byte, the end of q's bytes, scratch }
;   r2 = { the source is 4-aligned, q + 16, s, t: the shifts for a source
;          k bytes past 4-alignment, 8 k and 32 - 8 k }
;   r3 = the source's aligned words (r27 too, before a store)
ldst
	mov r0.xyz, global_id.xyzx
alu
	vmul.imul.i32 r1.x, r0.yyyy, r23.wwww        ; y * dst_row_pitch
	smul.imul.i32 r1.y, r0.y, r22.y              ; y * src_row_pitch
alu
	vmul.imul.i32 r1.z, r0.zzzz, r22.xxxx        ; z * dst_slice_pitch
	smul.imul.i32 r1.w, r0.z, r22.z              ; z * src_slice_pitch
alu
	vmul.imul.i32 r0.x, r0.xxxx, #256            ; the block's offset
	sadd.iadd.i32 r1.x, r1.x, r1.z
	vadd.iadd.i32 r1.y, r1.yyyy, r1.wwww
alu
	sadd.iadd.i32 r1.x, r1.x, r23.x              ; d
	vadd.iadd.i32 r1.y, r1.yyyy, r23.yyyy        ; s
alu
	sadd.iand.i32 r1.w, r1.x, #-16               ; the row's first block
	vadd.iadd.i32 r1.z, r1.xxxx, r23.zzzz        ; e = d + width
	smul.iadd.i32 r0.x, r1.w, r0.x               ; a
alu
	vmul.iadd.i32 r1.w, r0.xxxx, #256            ; a + 256
	sadd.umax.i32 r0.y, r0.x, r1.x               ; lo = max(a, d)
	vadd.isub.i32 r0.w, r1.yyyy, r1.xxxx         ; delta = s - d
	smul.umin.i32 r0.z, r1.w, r1.z               ; hi = min(a + 256, e)
alu
	smul.ule.i32 r31.w, r0.z, r0.y               ; past the row's end
	br.true done
alu
	vmul.ieq.i32 r1.x, r0.yyyy, r0.xxxx          ; starts at the block
	sadd.ieq.i32 r1.y, r0.z, r1.w                ; ends with it
	vadd.iand.i32 r1.z, r0.wwww, #3
	smul.iand.i32 r1.x, r1.x, r1.y
alu
	sadd.ieq.i32 r2.x, r1.z, #0                  ; source 4-aligned too
	smul.iand.i32 r31.w, r1.x, r2.x
	br.true whole
alu
	vmul.iand.i32 r2.z, r0.wwww, #3              ; k: source past 4-alignment
	sadd.iand.i32 r1.x, r0.y, #-16               ; q: lo's 16 bytes
	vadd.ishl.i32 r2.z, r2.zzzz, #3              ; s = 8 k
alu
	sadd.isub.i32 r2.w, r26.x, r2.z              ; t = 32 - s
	const 32
quad:
alu
	vmul.iadd.i32 r2.y, r1.xxxx, #16
	sadd.umax.i32 r1.y, r1.x, r0.y               ; from max(q, lo)
	smul.umin.i32 r1.z, r2.y, r0.z               ; to min(q + 16, hi)
alu
	sadd.isub.i32 r1.w, r1.z, r1.y
	smul.ine.i32 r31.w, r1.w, #16                ; not all 16 bytes
	br.true bytes
alu
	smul.imov.i32 r31.w, r2.x
	br.true vector                               ; the source 4-aligned
; 16 bytes from a source k bytes past 4-alignment: the five aligned words
; w0..w4 that hold them, out[i] = w[i] >> s | w[i + 1] << t (little
; endian). w0 and w4 hold the first and last byte wanted, so the loads
; stay in their pages.
alu
	vmul.imov.i32 r26.x, r1.xxxx
	sadd.iadd.i32 r1.w, r1.x, r0.w
	smul.iand.i32 r26.y, r1.w, #-4
ldst
	ld.128 r3.xyzw, [r26.y + zero.x.u32]
	ld.32 r1.w, [r26.y + zero.x.u32 + 16].xxxx
alu
	vmul.imov.i32 r27.xyz, r3.yzww               ; w1 w2 w3
	sadd.imov.i32 r27.w, r1.w                    ; w4
	vadd.ilsr.i32 r3.xyzw, r3.xyzw, r2.zzzz
alu
	vadd.ishl.i32 r27.xyzw, r27.xyzw, r2.wwww
alu
	vmul.ior.i32 r27.xyzw, r27.xyzw, r3.xyzw
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32]
alu
	br next
bytes:
alu
	vmul.imov.i32 r26.x, r1.yyyy                 ; destination byte
	sadd.iadd.i32 r26.y, r1.y, r0.w              ; source byte
ldst
	ld.u8 r27.x, [r26.y]
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
vector:
alu
	vmul.imov.i32 r26.x, r1.xxxx
	sadd.iadd.i32 r26.y, r1.x, r0.w
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32]
alu
	br next
whole:
alu
	vmul.imov.i32 r26.x, r0.xxxx
	sadd.iadd.i32 r26.y, r0.x, r0.w
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 16]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 16]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 32]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 32]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 48]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 48]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 64]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 64]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 80]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 80]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 96]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 96]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 112]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 112]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 128]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 128]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 144]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 144]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 160]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 160]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 176]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 176]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 192]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 192]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 208]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 208]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 224]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 224]
ldst
	ld.128 r27.xyzw, [r26.y + zero.x.u32 + 240]
ldst
	st.128 r27.xyzw, [r26.x + zero.x.u32 + 240]
done:
alu
