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

uint32_t sgpu_mem_access_slow(struct sgpu_exec *ex, uint64_t va, void *buf,
			      const void *src, size_t len)
{
	uint64_t generation = __atomic_load_n(ex->mmu_generation,
					      __ATOMIC_ACQUIRE);
	bool write = src != NULL;
	struct sgpu_page_cache *c = &ex->pages[write];
	uint8_t *page;
	uint32_t code;

	if (generation != ex->pages_generation) {
		memset(ex->pages, 0, sizeof(ex->pages));
		ex->pages_generation = generation;
	}
	if ((va & 0xFFF) + len <= 0x1000) {
		code = sgpu_shader_map(ex->ctx, va, write, &page);
		if (code)
			return code;
		if (page) {
			uint64_t tag = (va >> 12) + 1;
			unsigned int i = sgpu_page_slot(tag);

			c->tag[i] = tag;
			c->page[i] = page;
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
