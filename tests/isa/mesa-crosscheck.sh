#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cross-checks our Midgard encodings against Mesa 22.3's own disassembler:
# fetches Debian's mesa source once (scripts/fetch-mesa-source.sh, cached),
# builds Mesa's disassembler with plain gcc and our small shim
# (tests/isa/mesa-shim/) into build/mesa-disasm/, links it with our ISA
# library and tests/isa/mesa_crosscheck.c, and runs that. Works offline once
# the source is cached; rebuilds only when an input changes.
# Prints "isa-mesa-crosscheck: N passed, N failed". ISA_SEED=N replays a run.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib.sh

mesa=$(scripts/fetch-mesa-source.sh)
mdir=$mesa/src/panfrost/midgard
out=${SLEIPNIR_MESA_BUILD:-build/mesa-disasm}
shim=tests/isa/mesa-shim
cc=${CC:-gcc}
mkdir -p "$out"

# The whole hardware library, as the model and the tools link it.
ours=(midgard/*.c)
theirs=(disassemble midgard_ops midgard_print_constant)

stamp="$(hash_inputs midgard "$shim" tests/isa/mesa_crosscheck.c \
	tests/isa/isa_gen.h tests/harness/check.h "$0")-$(basename "$mesa")-$cc"
if [ ! -x "$out/mesa_crosscheck" ] || [ "$(cat "$out/.stamp" 2>/dev/null)" != "$stamp" ]; then
	say "building Mesa's Midgard disassembler ($(basename "$mesa")) in $out"
	rm -f "$out"/*.o "$out/mesa_crosscheck" "$out/.stamp"
	# Mesa's files: their own warnings are not ours (-w); assertions stay
	# on and are recorded by the shim's <assert.h> instead of aborting.
	for f in "${theirs[@]}"; do
		$cc -std=gnu11 -O1 -g -w -I"$shim" -I"$mdir" \
			-include "$shim/stdout_redirect.h" \
			-c "$mdir/$f.c" -o "$out/mesa_$f.o"
	done
	$cc -std=gnu11 -O1 -g -Wall -Wextra -I"$shim" -isystem "$mdir" \
		-c "$shim/mesa_shim.c" -o "$out/mesa_shim.o"
	for f in "${ours[@]}"; do
		$cc -std=gnu11 -O1 -g -Wall -Wextra -Imidgard \
			-c "$f" -o "$out/ours_$(basename "$f" .c).o"
	done
	$cc -std=gnu11 -O1 -g -Wall -Wextra -Werror -Imidgard \
		-Itests/harness -Itests/isa -I"$shim" \
		-c tests/isa/mesa_crosscheck.c -o "$out/mesa_crosscheck.o"
	$cc -o "$out/mesa_crosscheck" "$out"/*.o -lm
	echo "$stamp" >"$out/.stamp"
fi
exec "$out/mesa_crosscheck"
