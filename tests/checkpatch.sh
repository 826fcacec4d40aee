#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs Linux 6.1's checkpatch.pl --strict over the kernel code: kernel/*.[ch],
# uapi/drm/*.h, the test modules in tests/kmod/ and the Kbuild files. A file
# passes when checkpatch reports no ERROR; its warnings and checks are printed
# but do not fail it. The last line is "checkpatch: N passed, N failed".
# Results are kept in build/checkpatch/ by file name and contents, so only
# files that changed are checked again.
# Usage: tests/checkpatch.sh [FILE...]   (default: the files above)
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

# Named files become tree-relative names.
root=$(cd "$SLEIPNIR_ROOT" && pwd -P)
files=()
for f in "$@"; do
	[ -f "$f" ] || { echo "checkpatch: $f: no such file" >&2; exit 2; }
	abs=$(realpath "$f")
	[ "${abs#"$root"/}" != "$abs" ] ||
		{ echo "checkpatch: $f is outside the tree" >&2; exit 2; }
	files+=("${abs#"$root"/}")
done
cd "$SLEIPNIR_ROOT"

# scripts/build.sh links the unpacked source here; otherwise fetch it.
src=build/linux-source
[ -f "$src/scripts/checkpatch.pl" ] || src=$(scripts/fetch-linux-source.sh)
src=$(cd "$src" && pwd)
checkpatch=$src/scripts/checkpatch.pl
opts=(--strict --no-tree --terse --summary-file --color=never)

if [ $# -eq 0 ]; then
	shopt -s nullglob
	for f in kernel/*.[ch] uapi/drm/*.h tests/kmod/*.[ch] \
		Kbuild kernel/Kbuild tests/kmod/Kbuild; do
		case "$f" in *.mod.c) continue ;; esac # written by modpost
		[ -f "$f" ] && files+=("$f")
	done
	shopt -u nullglob
fi
if [ ${#files[@]} -eq 0 ]; then
	echo "checkpatch: no files to check"
	echo "checkpatch: 0 passed, 1 failed"
	exit 1
fi

# A result is valid for one checkpatch (script and word lists), one set of
# options, one file name and one content.
cache=build/checkpatch
mkdir -p "$cache"
tool=$( (cat "$checkpatch" "$src/scripts/spelling.txt" \
	"$src/scripts/const_structs.checkpatch"; echo "${opts[*]}") |
	sha256sum | cut -c1-16)
declare -A result
todo=()
while read -r sum f; do
	result[$f]="$cache/$tool-${sum:0:32}-${f//\//_}"
	[ -f "${result[$f]}" ] || todo+=("$f")
done < <(sha256sum "${files[@]}")

if [ ${#todo[@]} -gt 0 ]; then
	# checkpatch runs in a scratch folder that mirrors the tree through
	# symlinks, so it reports tree-relative names and its CamelCase cache
	# (.checkpatch-camelcase.*) lands there, not in the tree. --strict
	# seeds that cache from git when it can, which is quiet: give it ours.
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	for f in "${todo[@]}"; do
		top=${f%%/*}
		[ -e "$work/$top" ] || ln -s "$SLEIPNIR_ROOT/$top" "$work/$top"
	done
	if gitdir=$(git rev-parse --absolute-git-dir 2>/dev/null); then
		export GIT_DIR=$gitdir
	fi

	# One checkpatch per CPU over batches of about equal size (largest
	# file first, onto the lightest batch): it costs ~1.4 ms per line.
	ncpu=$(nproc)
	[ "$ncpu" -le ${#todo[@]} ] || ncpu=${#todo[@]}
	declare -a batch load
	for ((i = 0; i < ncpu; i++)); do
		batch[i]="" load[i]=0
	done
	while read -r size f; do
		min=0
		for ((i = 1; i < ncpu; i++)); do
			[ "${load[i]}" -lt "${load[min]}" ] && min=$i
		done
		batch[min]+=" $f"
		load[min]=$((load[min] + size))
	done < <(wc -c "${todo[@]}" | grep -v ' total$' | sort -rn)
	for ((i = 0; i < ncpu; i++)); do
		(
			cd "$work"
			rc=0
			# shellcheck disable=SC2086 # a list of names
			perl "$checkpatch" "${opts[@]}" -f ${batch[i]} \
				>"$work/out.$i" 2>"$work/err.$i" || rc=$?
			echo "$rc" >"$work/rc.$i"
		) &
	done
	wait

	for ((i = 0; i < ncpu; i++)); do
		rc=$(cat "$work/rc.$i")
		sed 's/^/checkpatch: /' "$work/err.$i"
		for f in ${batch[i]}; do
			if [ "$rc" -gt 1 ]; then
				# checkpatch itself failed: no verdict, no cache.
				result[$f]="$work/broken"
				echo "checkpatch exited with status $rc" >"${result[$f]}"
				continue
			fi
			# Its lines are "FILE:LINE: LEVEL: text", then "FILE
			# total: N errors, ..." (only when it found something).
			awk -v f="$f" 'index($0, f ":") == 1 ||
				($1 == f && $2 == "total:")' "$work/out.$i" \
				>"${result[$f]}.tmp"
			mv "${result[$f]}.tmp" "${result[$f]}"
		done
	done
fi

passed=0 failed=0
declare -A keep
for f in "${files[@]}"; do
	keep[${result[$f]##*/}]=1
	counts=$(awk -v f="$f" '$1 == f && $2 == "total:" {
		sub(/^[^:]*: /, ""); sub(/, [0-9]+ lines checked$/, ""); print }' \
		"${result[$f]}")
	errors=$(sed -n 's/^\([0-9]*\) errors.*/\1/p' <<<"$counts")
	if grep -q '^checkpatch exited' "${result[$f]}"; then
		echo "FAIL $f ($(cat "${result[$f]}"))"
		failed=$((failed + 1))
		continue
	elif [ "${errors:-0}" -gt 0 ]; then
		echo "FAIL $f ($counts)"
		failed=$((failed + 1))
	else
		echo "ok   $f${counts:+ ($counts)}"
		passed=$((passed + 1))
	fi
	awk -v f="$f" 'index($0, f ":") == 1 { print "  " $0 }' "${result[$f]}"
done
# After a full run, forget results for files and contents that are gone.
if [ $# -eq 0 ]; then
	for r in "$cache"/*; do
		[ -n "${keep[${r##*/}]:-}" ] || rm -f "$r"
	done
fi
echo "checkpatch: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
