/* SPDX-License-Identifier: MIT */
/*
 * The shader cores' path to global memory (sgpu_shader.h): loads and
 * stores within one page go straight to the host's pointer for that page
 * once the MMU has translated it (sgpu_shader_map); everything else, and
 * memory the host has no pointer for, goes through the model's locked
 * accessors. A flush of any translation cache (a new MMU generation)
 * drops every pointer, so the shader sees the driver's page-table changes
 * as soon as the MMU does.
 */
#include "sgpu_shader.h"

/* Drops every pointer once the MMU has flushed since they were made. */
static void check_generation(struct sgpu_exec *ex)
{
	uint64_t generation = __atomic_load_n(ex->mmu_generation,
					      __ATOMIC_ACQUIRE);

	if (generation != ex->pages_generation) {
		memset(ex->pages, 0, sizeof(ex->pages));
		ex->pages_generation = generation;
	}
}

static void remember(struct sgpu_exec *ex, uint64_t va, bool write,
		     uint8_t *page)
{
	uint64_t tag = (va >> 12) + 1;
	unsigned int i = sgpu_page_slot(tag);

	ex->pages[write].tag[i] = tag;
	ex->pages[write].page[i] = page;
}

uint8_t *sgpu_mem_page_fill(struct sgpu_exec *ex, uint64_t va, bool write)
{
	uint8_t *page = sgpu_mem_page(ex, va, write);

	if (page)
		return page;
	check_generation(ex);
	if (sgpu_shader_map(ex->ctx, va, write, false, &page) || !page)
		return NULL;
	remember(ex, va, write, page);
	return page;
}

uint32_t sgpu_mem_access_slow(struct sgpu_exec *ex, uint64_t va, void *buf,
			      const void *src, size_t len)
{
	bool write = src != NULL;
	uint8_t *page;
	uint32_t code;

	check_generation(ex);
	if ((va & 0xFFF) + len <= 0x1000) {
		code = sgpu_shader_map(ex->ctx, va, write, true, &page);
		if (code)
			return code;
		if (page) {
			remember(ex, va, write, page);
			if (write)
				memcpy(page + (va & 0xFFF), src, len);
			else
				memcpy(buf, page + (va & 0xFFF), len);
			return 0;
		}
	}
	if (write)
		return sgpu_shader_write(ex->ctx, va, src, len);
	return sgpu_shader_read(ex->ctx, va, buf, len);
}
