// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: debugfs. Read-only views of the driver's state:
 *
 * - counters: live objects and event counts, one "key: value" per line;
 * - gpu: identification, power state and, when powered, live registers;
 * - as: which client each hardware address space holds;
 * - client_state: every open file with its BOs, mappings, jobs and faults;
 * - faults: the latest faults of all clients.
 */
#include <linux/idr.h>
#include <linux/pm_runtime.h>
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>
#include <drm/sleipnir_drm.h>

#include "sleipnir_debugfs.h"
#include "sleipnir_device.h"
#include "sleipnir_drv.h"
#include "sleipnir_mmu.h"

static struct sleipnir_device *to_sdev(struct seq_file *m)
{
	struct drm_info_node *node = m->private;

	return to_sleipnir_device(node->minor->dev);
}

static int sleipnir_debugfs_counters(struct seq_file *m, void *unused)
{
	struct sleipnir_counters *c = &to_sdev(m)->counters;

	seq_printf(m, "bos: %d\n", atomic_read(&c->bos));
	seq_printf(m, "vms: %d\n", atomic_read(&c->vms));
	seq_printf(m, "vm_mappings: %d\n", atomic_read(&c->vm_mappings));
	seq_printf(m, "as_bound: %d\n", atomic_read(&c->as_bound));
	seq_printf(m, "jobs_in_flight: %d\n", atomic_read(&c->jobs_in_flight));
	seq_printf(m, "jobs_submitted: %lld\n",
		   atomic64_read(&c->jobs_submitted));
	seq_printf(m, "jobs_done: %lld\n", atomic64_read(&c->jobs_done));
	seq_printf(m, "jobs_failed: %lld\n", atomic64_read(&c->jobs_failed));
	seq_printf(m, "jobs_timedout: %lld\n",
		   atomic64_read(&c->jobs_timedout));
	seq_printf(m, "gpu_resets: %lld\n", atomic64_read(&c->gpu_resets));
	seq_printf(m, "mmu_faults: %lld\n", atomic64_read(&c->mmu_faults));
	return 0;
}

static int sleipnir_debugfs_gpu(struct seq_file *m, void *unused)
{
	struct sleipnir_device *sdev = to_sdev(m);
	unsigned int js;

	seq_printf(m, "model: Mali-%s, GPU_ID 0x%08x\n", sdev->model_name,
		   sdev->features.gpu_id);
	seq_printf(m, "cores in use: 0x%llx, quirks: 0x%x, coherent: %d\n",
		   sdev->features.shader_present & sdev->core_mask,
		   sdev->quirks, sdev->coherent);

	/* Registers only while powered: reading them off may hang the bus. */
	if (pm_runtime_get_if_in_use(sdev->dev) <= 0) {
		seq_puts(m, "power: off\n");
		return 0;
	}
	seq_puts(m, "power: on\n");
	seq_printf(m, "GPU_STATUS 0x%08x SHADER_READY 0x%08x L2_READY 0x%08x TILER_READY 0x%08x\n",
		   sleipnir_read(sdev, SLP_GPU_STATUS),
		   sleipnir_read(sdev, SLP_GPU_SHADER_READY_LO),
		   sleipnir_read(sdev, SLP_GPU_L2_READY_LO),
		   sleipnir_read(sdev, SLP_GPU_TILER_READY_LO));
	for (js = 0; js < sdev->js_count; js++)
		seq_printf(m, "js%u: STATUS 0x%08x HEAD 0x%016llx TAIL 0x%016llx\n",
			   js, sleipnir_read(sdev, SLP_JS_STATUS(js)),
			   sleipnir_read64(sdev, SLP_JS_HEAD_LO(js)),
			   sleipnir_read64(sdev, SLP_JS_TAIL_LO(js)));
	pm_runtime_put_autosuspend(sdev->dev);
	return 0;
}

static int sleipnir_debugfs_as(struct seq_file *m, void *unused)
{
	struct sleipnir_device *sdev = to_sdev(m);
	unsigned int i;

	spin_lock(&sdev->as_lock);
	for (i = 0; i < sdev->as_count; i++) {
		struct sleipnir_vm *vm = sdev->as_vm[i];

		if (vm)
			seq_printf(m, "AS%u: client %d (%s), %d chain(s) on the GPU\n",
				   i, vm->pid, vm->comm, vm->as_users);
		else
			seq_printf(m, "AS%u: free\n", i);
	}
	spin_unlock(&sdev->as_lock);
	return 0;
}

static int sleipnir_count_handle(int id, void *ptr, void *data)
{
	(*(unsigned int *)data)++;
	return 0;
}

static int sleipnir_debugfs_clients(struct seq_file *m, void *unused)
{
	struct sleipnir_device *sdev = to_sdev(m);
	struct drm_device *ddev = &sdev->ddev;
	struct drm_file *file;

	/* filelist_mutex before clients_lock, as in open and close. */
	mutex_lock(&ddev->filelist_mutex);
	list_for_each_entry(file, &ddev->filelist, lhead) {
		struct sleipnir_file *sfile = file->driver_priv;
		struct sleipnir_vm *vm;
		unsigned int handles = 0;

		if (!sfile)
			continue;
		vm = sfile->vm;

		spin_lock(&file->table_lock);
		idr_for_each(&file->object_idr, sleipnir_count_handle,
			     &handles);
		spin_unlock(&file->table_lock);

		seq_printf(m, "client %llu: pid %d (%s), %u BO handles, %u mappings, %lld chains done, %lld failed, fault pending: %s\n",
			   sfile->id, vm->pid, vm->comm, handles,
			   READ_ONCE(vm->mapping_count),
			   atomic64_read(&vm->usage.jobs_done),
			   atomic64_read(&vm->usage.jobs_failed),
			   sleipnir_fault_pending(&vm->faults) ? "yes" : "no");
	}
	mutex_unlock(&ddev->filelist_mutex);
	return 0;
}

static int sleipnir_debugfs_faults(struct seq_file *m, void *unused)
{
	sleipnir_fault_log_show(&to_sdev(m)->faults, m);
	return 0;
}

static const struct drm_info_list sleipnir_debugfs_list[] = {
	{ "counters", sleipnir_debugfs_counters, 0 },
	{ "gpu", sleipnir_debugfs_gpu, 0 },
	{ "as", sleipnir_debugfs_as, 0 },
	{ "client_state", sleipnir_debugfs_clients, 0 },
	{ "faults", sleipnir_debugfs_faults, 0 },
};

void sleipnir_debugfs_init(struct drm_minor *minor)
{
	drm_debugfs_create_files(sleipnir_debugfs_list,
				 ARRAY_SIZE(sleipnir_debugfs_list),
				 minor->debugfs_root, minor);
}
