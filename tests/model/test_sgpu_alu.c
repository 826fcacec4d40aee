/* SPDX-License-Identifier: MIT */
#include "check.h"
CHECK_MAIN_STATE("sgpu_alu");
int main(void)
{
	return check_summary();
}
