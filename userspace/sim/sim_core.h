/* SPDX-License-Identifier: MIT */
/*
 * Interfaces private to the simulator's core (sim_intercept.c, sim_device.c,
 * sim_ram.c, sim_gem.c, sim_vm.c, sim_ioctl.c); sim.h is what the other
 * parts see.
 */
#ifndef SLEIPNIR_SIM_CORE_H
#define SLEIPNIR_SIM_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <drm/sleipnir_drm.h>

#include "sim.h"
#include "sleipnir_common.h"
#include "sleipnir_features.h"
#include "sleipnir_hwcfg.h"
#include "sleipnir_rules.h"

#define SIM_PAGE 4096ull
#define SIM_SZ_2M (2ull << 20)
#define SIM_ALIGNED(v, a) (((v) & ((a) - 1)) == 0)

/* As the kernel: GPU addresses below this are never mapped. */
#define SIM_VA_START ((uint64_t)SLEIPNIR_VA_START)
/* TRANSTAB mode bits and MEMATTR as io-pgtable's ARM_MALI_LPAE sets them. */
#define SIM_TRANSTAB_MODE 0x7ull         /* table walk, inner read-alloc */
#define SIM_MEMATTR 0x888d88ull

/*
 * What the GPU reports about itself, read after the soft reset at probe,
 * and what the driver derives from it: the kernel's own struct and rules
 * (kernel/sleipnir_features.h). derived.max_job_timeout_ms is unused: the
 * scheduler keeps that knob (sim_sched_max_job_timeout_ms).
 */
struct sim_features {
	struct sleipnir_features hw;
	struct sleipnir_param_state derived;
};

const struct sim_features *sim_device_features(struct sim_device *dev);
uint64_t sim_va_end(struct sim_device *dev);

/* --- physical memory (sim_ram.c) ---------------------------------------- */

/*
 * RAM is one sparse memfd seen by the model at SIM_RAM_BASE; userptr
 * ranges are given physical addresses from SIM_USERPTR_BASE up.
 */
#define SIM_RAM_BASE (1ull << 30)
#define SIM_USERPTR_BASE (1ull << 39)
#define SIM_USERPTR_END (1ull << 40)

int sim_ram_init(void);
uint64_t sim_ram_size(void);
int sim_ram_fd(void);
/* Zero-filled, contiguous; 0 when out of space. */
uint64_t sim_ram_alloc(uint64_t size, uint64_t align);
void sim_ram_free(uint64_t pa, uint64_t size);
/* The host address of RAM at pa (which must be RAM). */
void *sim_ram_ptr(uint64_t pa);
/* The memfd offset of RAM at pa, for mmap. */
static inline off_t sim_ram_offset(uint64_t pa)
{
	return (off_t)(pa - SIM_RAM_BASE);
}
/* Registers [ptr, ptr + size) of the process as GPU-reachable memory. */
int sim_ram_userptr_add(void *ptr, uint64_t size, uint64_t *pa);
void sim_ram_userptr_remove(uint64_t pa);
/*
 * The process is about to unmap [addr, addr + len): userptr pages there
 * are moved out of its way first (they stay the BO's, as pinned pages).
 * True when any was, and the model must then drop its page pointers.
 */
bool sim_ram_userptr_unmapping(void *addr, size_t len);
/* sgpu_host callbacks. */
bool sim_ram_read(void *opaque, uint64_t pa, void *buf, size_t len);
bool sim_ram_write(void *opaque, uint64_t pa, const void *buf, size_t len);
void *sim_ram_page(void *opaque, uint64_t page_pa, bool write);
/* After fork(): the child starts without RAM of its own. */
void sim_ram_forget(void);

/* --- BOs (sim_gem.c) ---------------------------------------------------- */

uint32_t sim_bo_flags(const struct sim_bo *bo);
uint64_t sim_bo_pa(const struct sim_bo *bo);
/* The file's table, emptied at close. */
void sim_gem_file_close(struct sim_file *file);
int sim_gem_ioctl_bo_create(struct sim_file *file, void *arg);
int sim_gem_ioctl_bo_userptr(struct sim_file *file, void *arg);
int sim_gem_ioctl_bo_mmap_offset(struct sim_file *file, void *arg);
int sim_gem_ioctl_bo_info(struct sim_file *file, void *arg);
int sim_gem_ioctl_bo_sync(struct sim_file *file, void *arg);
int sim_gem_ioctl_gem_close(struct sim_file *file, void *arg);
int sim_gem_ioctl_prime_handle_to_fd(struct sim_file *file, void *arg);
int sim_gem_ioctl_prime_fd_to_handle(struct sim_file *file, void *arg);
/* mmap() of the node at a BO's fake offset. */
void *sim_gem_mmap(struct sim_file *file, void *addr, size_t len, int prot,
		   int flags, off_t offset);
/* munmap() (or a MAP_FIXED mmap) took [addr, addr + len) away. */
void sim_gem_cpu_unmapped(void *addr, size_t len);
/* mremap() moved [old, old + old_len) to [new, new + new_len). */
void sim_gem_cpu_remapped(void *old_addr, size_t old_len, void *new_addr,
			  size_t new_len, bool keep_old);
void sim_gem_forget(void);
/* BOs alive (the kernel's debugfs counter "bos"). */
int sim_gem_live_bos(void);

/* --- the VM (sim_vm.c) -------------------------------------------------- */

struct sim_vm *sim_vm_create(struct sim_file *file);
void sim_vm_destroy(struct sim_vm *vm);
int sim_vm_ioctl_map(struct sim_file *file, void *arg);
int sim_vm_ioctl_unmap(struct sim_file *file, void *arg);
/* Makes the model drop every host page pointer it holds (an MMU flush). */
void sim_vm_drop_page_pointers(struct sim_device *dev);
/* After a GPU reset: no AS holds a VM any more. */
void sim_vm_forget_all(struct sim_device *dev);
void sim_vm_forget(void);
/* VMs, VM_MAP mappings and bound ASes alive (debugfs counters). */
void sim_vm_counters(int *vms, int *mappings, int *bound);

/* --- the node (sim_ioctl.c) --------------------------------------------- */

/* Opens a new file of the node: its fd, or -errno. */
int sim_node_open(int flags);

/* --- debugfs (sim_debugfs.c) -------------------------------------------- */

#define SIM_DEBUGFS_DRI "/sys/kernel/debug/dri"
/* Whether path is the dri folder, whose listing is the one minor "0". */
bool sim_debugfs_is_dri_dir(const char *path);

/* --- module parameters (sim_param.c) ------------------------------------- */

/* Whether path is one of /sys/module/sleipnir/parameters/ we serve. */
bool sim_param_path(const char *path);
/* Opens it: an fd whose read()/write() are the parameter's, or -errno. */
int sim_param_open(const char *path, int flags);

/* --- the device (sim_device.c) ------------------------------------------ */

void sim_device_forget(void);

#endif
