/* SPDX-License-Identifier: MIT */
/*
 * A shader core's thread-storage slots belong to one task at a time. The
 * model runs the cores on several host threads; a thread that finished
 * its cores' tasks early must not start the next task of a core whose
 * task another thread is still running: both would use the core's slots
 * for their lanes' private memory (TLS), as two hardware threads never
 * do. CLBlast's CTRSM met this as a rare wrong result on a loaded host.
 *
 * The kernel keeps a private array that the compiler places in TLS and
 * reads it back after a loop that only work-group 0 runs for long, so the
 * other host thread runs through the other cores' tasks and reaches core
 * 0's next task while core 0's first one still holds its slots. Every
 * work-item must read back its own array (a C reference).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "corpus_runner.h"

CHECK_MAIN_STATE("compiler_core_slots");

static const char source[] =
	"kernel void private_slots(global uint *out, uint spin)\n"
	"{\n"
	"\tuint gid = (uint)get_global_id(0);\n"
	"\tuint a[16];\n"
	"\tuint acc = gid;\n"
	"\n"
	"\tfor (uint i = 0; i < 16; i++)\n"
	"\t\ta[i] = gid * 16u + i;\n"
	"\tif (get_group_id(0) == 0) {\n"
	"\t\tfor (uint k = 0; k < spin; k++)\n"
	"\t\t\tacc = acc * 1664525u + 1013904223u;\n"
	"\t}\n"
	"\tuint sum = 0;\n"
	"\tfor (uint i = 0; i < 16; i++)\n"
	"\t\tsum += a[(i + acc) & 15u];\n"
	"\tout[gid] = sum;\n"
	"}\n";

/* 4 cores x 2 rounds of one 256-lane work-group each. */
#define GROUP 256u
#define ITEMS (8u * GROUP)

static struct cr_session session;

TEST(a_core_runs_one_task_at_a_time)
{
	struct slb_program prog;
	const uint32_t spin = 20000;
	uint32_t va, *out, wrong = 0;
	char *log = NULL;

	if (!cr_compile(source, NULL, &prog, &log)) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "build: %s", log ? log : "");
		free(log);
		return;
	}
	free(log);
	/* The array is in thread storage, or the test shows nothing. */
	CHECK(prog.kernels[0].private_bytes >= 64);
	out = cr_alloc(&session, ITEMS * 4, &va);
	if (!out || !cr_launch(&session, &prog, "private_slots",
			       (struct cr_arg[]){ CR_BUF(va), CR_VAL(&spin) },
			       2, &CR_1D(ITEMS, GROUP))) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "launch");
		slb_program_free(&prog);
		return;
	}
	/* Each work-item sums its own gid * 16 + 0..15, each once. */
	for (uint32_t i = 0; i < ITEMS; i++)
		wrong += out[i] != i * 256u + 120u;
	CHECK_EQ(wrong, 0);
	slb_program_free(&prog);
}

int main(void)
{
	/* Two host threads for the four shader cores. */
	if (!cr_init_engine(&session, SGPU_ENGINE_LOCKSTEP, 2)) {
		printf("compiler_core_slots: the model did not start\n");
		return 1;
	}
	RUN(a_core_runs_one_task_at_a_time);
	if (!cr_fini(&session)) {
		printf("  the model reported a guest error or a leak\n");
		check_state.failed++;
	}
	return check_summary();
}
