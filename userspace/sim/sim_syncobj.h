/* SPDX-License-Identifier: MIT */
/*
 * Syncobjs of the simulated kernel: the DRM core's DRM_IOCTL_SYNCOBJ_*
 * (binary and timeline syncobjs, waits with WAIT_FOR_SUBMIT, transfer,
 * reset, signal, query, export and import as syncobj fds and sync_files)
 * with the semantics and errnos of Linux 6.1's drm_syncobj.c. Handles are
 * local to one open file; a table holds them.
 */
#ifndef SLEIPNIR_SIM_SYNCOBJ_H
#define SLEIPNIR_SIM_SYNCOBJ_H

#include <stdbool.h>
#include <stdint.h>

#include "sim_fence.h"

struct sim_syncobj_table;

struct sim_syncobj_table *sim_syncobj_table_new(void);
/* Drops every handle (at close of the file). */
void sim_syncobj_table_free(struct sim_syncobj_table *table);

/*
 * Runs a DRM core syncobj ioctl (DRM_IOCTL_SYNCOBJ_CREATE ... _QUERY,
 * TIMELINE_SIGNAL, TRANSFER, FD_TO_HANDLE, HANDLE_TO_FD). arg is the
 * ioctl's struct as drm_ioctl() hands it to a handler: already copied in
 * (and zero-extended), copied out by the caller; the request is matched
 * on its type and number only. Returns 0 or the negative errno; -ENOTTY
 * when request is not a syncobj ioctl. The sync_files it exports are fds
 * of their own (sim_fd.h) that answer SYNC_IOC_FILE_INFO and
 * SYNC_IOC_MERGE and poll readable once signalled.
 */
int sim_syncobj_ioctl(struct sim_syncobj_table *table, unsigned long request,
		      void *arg);

/*
 * For SUBMIT's in-syncs: the fence handle holds (binary: point 0) or the
 * fence of point (timeline), with a reference. -ENOENT for an unknown
 * handle; -EINVAL when a binary syncobj has no fence or the point has
 * none yet (SUBMIT does not wait for submit).
 */
int sim_syncobj_find_fence(struct sim_syncobj_table *table, uint32_t handle,
			   uint64_t point, struct sim_fence **out);
/*
 * For SUBMIT's out-syncs: replaces the binary syncobj's fence (point 0),
 * or adds fence as timeline point point. -ENOENT for an unknown handle.
 * Checking every handle first and replacing after is the caller's job:
 * sim_syncobj_exists() for that.
 */
int sim_syncobj_replace_fence(struct sim_syncobj_table *table,
			      uint32_t handle, uint64_t point,
			      struct sim_fence *fence);
bool sim_syncobj_exists(struct sim_syncobj_table *table, uint32_t handle);

#endif
