; SPDX-License-Identifier: MIT
; A self-test that never ends: the driver must stop it after its timeout
; (tests of the FAILED path and the hard stop).
loop:
alu
	vmul.imov.i32 r0.x, #0
	br loop
