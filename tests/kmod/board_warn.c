// SPDX-License-Identifier: GPL-2.0-only
/*
 * Raises one kernel WARN when loaded, so the board runner's test can check
 * that a guest splat fails a run whatever the command returned.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init board_warn_init(void)
{
	WARN(1, "board_warn: deliberate warning for the board runner's test\n");
	return 0;
}

static void __exit board_warn_exit(void)
{
}

module_init(board_warn_init);
module_exit(board_warn_exit);
MODULE_DESCRIPTION("Sleipnir board runner test: a deliberate WARN");
MODULE_LICENSE("GPL");
