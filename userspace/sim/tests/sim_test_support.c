/* SPDX-License-Identifier: MIT */
/*
 * What the unit tests of sim_fence.c and sim_syncobj.c need from the rest
 * of the simulator without linking it (and its --wrap of the C library):
 * the real close() that sim_fd.c calls, and user copies that turn NULL or
 * a wrapping range into -EFAULT (the tests pass no other bad pointers).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "sim.h"

int __real_close(int fd);

int __real_close(int fd)
{
	return close(fd);
}

int sim_copy_from_user(void *dst, uint64_t user_src, size_t len)
{
	if (!len)
		return 0;
	if (!user_src || user_src + len < user_src)
		return -EFAULT;
	memcpy(dst, (void *)(uintptr_t)user_src, len);
	return 0;
}

int sim_copy_to_user(uint64_t user_dst, const void *src, size_t len)
{
	if (!len)
		return 0;
	if (!user_dst || user_dst + len < user_dst)
		return -EFAULT;
	memcpy((void *)(uintptr_t)user_dst, src, len);
	return 0;
}
