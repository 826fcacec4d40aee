; SPDX-License-Identifier: MIT
; A self-test that stores to GPU address 0, which is never mapped: the job
; ends with an MMU fault (tests of the FAILED path).
alu
	vmul.imov.i32 r26.xy, #0
	vadd.imov.i32 r27.x, #7
ldst
	st.32 r27.xxxx, [r26.xy]
