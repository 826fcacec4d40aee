/* SPDX-License-Identifier: MIT */
/*
 * spirv_to_sir(): the driver. Parses the module, creates a SIR function per
 * kernel and per defined function, then, through a worklist, the libclc
 * functions those call (OpExtInst builtins and imported declarations),
 * transitively; lays out module-scope __constant/__local variables; fills
 * the kernels' argument metadata; and checks every result with sir_verify.
 */
#include "spirv_internal.h"
#include "../binary/slb_binary.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPV_MAX_LIBRARY_BYTES (256u << 20)
#define SPV_MAX_GLOBAL_BYTES (64u << 20)

bool spv_error(struct spv_conv *c, const char *fmt, ...)
{
	va_list ap;

	if (c->errsz) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->errsz, fmt, ap);
		va_end(ap);
	}
	return false;
}

struct spirv_library *spirv_library_from_words(const uint32_t *words,
					       size_t n, char *err,
					       size_t errsz)
{
	struct spirv_library *lib = calloc(1, sizeof(*lib));

	if (!lib || !(lib->words = malloc(n ? n * 4 : 4))) {
		free(lib);
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	memcpy(lib->words, words, n * 4);
	if (!spv_module_parse(&lib->mod, lib->words, n, true, err, errsz)) {
		spirv_library_free(lib);
		return NULL;
	}
	return lib;
}

struct spirv_library *spirv_library_load(const char *path, char *err,
					 size_t errsz)
{
	struct spirv_library *lib = NULL;
	FILE *fp = fopen(path, "rb");
	uint32_t *words = NULL;
	long size;

	if (!fp) {
		snprintf(err, errsz, "cannot open the SPIR-V library %s", path);
		return NULL;
	}
	if (fseek(fp, 0, SEEK_END) || (size = ftell(fp)) < 0 ||
	    fseek(fp, 0, SEEK_SET)) {
		snprintf(err, errsz, "cannot read %s", path);
	} else if (size % 4 || (unsigned long)size > SPV_MAX_LIBRARY_BYTES) {
		snprintf(err, errsz, "%s is not a SPIR-V module", path);
	} else if (!(words = malloc(size ? (size_t)size : 4))) {
		snprintf(err, errsz, "out of memory");
	} else if (fread(words, 1, (size_t)size, fp) != (size_t)size) {
		snprintf(err, errsz, "cannot read %s", path);
	} else {
		lib = spirv_library_from_words(words, (size_t)size / 4, err,
					       errsz);
	}
	free(words);
	fclose(fp);
	return lib;
}

void spirv_library_free(struct spirv_library *lib)
{
	if (!lib)
		return;
	spv_module_free(&lib->mod);
	free(lib->words);
	free(lib);
}

/* Index in m->functions of the function with id func_id, or UINT32_MAX. */
static uint32_t spv_function_index(const struct spv_module *m,
				   uint32_t func_id)
{
	uint32_t lo = 0, hi = m->num_functions, at;

	if (!func_id || func_id >= m->bound ||
	    m->ids[func_id].opcode != SpvOpFunction)
		return UINT32_MAX;
	at = m->ids[func_id].def;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (m->functions[mid].begin == at)
			return mid;
		if (m->functions[mid].begin < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return UINT32_MAX;
}

static int32_t **spv_func_map(struct spv_conv *c, const struct spv_module *m)
{
	return m == c->user ? &c->user_funcs : &c->lib_funcs;
}

static bool spv_kernel_name_taken(struct spv_conv *c, const char *name)
{
	uint32_t i;

	for (i = 0; i < c->user->num_entries; i++)
		if (!strcmp(c->user->entries[i].name, name))
			return true;
	return false;
}

/* Return and parameter types, names and decorations of a new function. */
static bool spv_function_signature(struct spv_conv *c,
				   const struct spv_module *m,
				   const struct spv_function *fn,
				   uint32_t index, struct sir_function *f)
{
	const uint32_t *w = &m->words[fn->begin];
	const struct spv_type *ft;
	uint32_t i, at;
	char msg[160];

	if ((w[0] >> 16) < 5 || !(ft = spv_type_of_id(m, w[4])) ||
	    ft->kind != SPV_T_FUNC || ft->elem != w[1])
		return spv_error(c, "function %%%u: bad function type", fn->id);
	if (!spv_sir_type(m, w[1], &f->ret, msg, sizeof(msg)))
		return spv_error(c, "function %s: %s", f->name, msg);
	f->params = calloc(ft->count ? ft->count : 1, sizeof(*f->params));
	if (!f->params)
		return spv_error(c, "out of memory");
	at = fn->begin + (w[0] >> 16);
	for (i = 0; i < ft->count; i++) {
		struct sir_param *p = &f->params[f->num_params];
		const uint32_t *pw = &m->words[at];
		const struct spv_id *d;

		if (at >= fn->end || (pw[0] & 0xffff) !=
		    SpvOpFunctionParameter || (pw[0] >> 16) < 3 ||
		    pw[1] != ft->members[i])
			return spv_error(c, "function %s: parameter %u does "
					 "not match its type", f->name, i);
		d = &m->ids[pw[2]];
		if (!spv_sir_type(m, pw[1], &p->type, msg, sizeof(msg)))
			return spv_error(c, "function %s, parameter %u: %s",
					 f->name, i, msg);
		p->name = strdup(d->name ? d->name : "");
		p->type_name = strdup("");
		f->num_params++;
		if (!p->name || !p->type_name)
			return spv_error(c, "out of memory");
		p->align = d->align;
		p->is_volatile = d->is_volatile;
		p->is_const = d->param_attrs &
			      (1u << SpvFunctionParameterAttributeNoWrite);
		p->is_restrict = d->param_attrs &
				 (1u << SpvFunctionParameterAttributeNoAlias);
		if ((d->param_attrs &
		     (1u << SpvFunctionParameterAttributeByVal)) &&
		    !spv_byval_mark(c, index, i))
			return false;
		at += pw[0] >> 16;
	}
	return true;
}

int32_t spv_function_ref(struct spv_conv *c, const struct spv_module *m,
			 uint32_t func_id)
{
	int32_t **map = spv_func_map(c, m);
	uint32_t index = spv_function_index(m, func_id);
	const struct spv_function *fn;
	struct sir_function *f;
	const struct spv_id *d;
	char name[32];
	const char *fname;

	if (index == UINT32_MAX)
		return spv_error(c, "%%%u is not a function", func_id), -1;
	if (!*map && !(*map = calloc(m->bound, sizeof(int32_t))))
		return spv_error(c, "out of memory"), -1;
	if ((*map)[func_id])
		return (*map)[func_id] - 1;
	fn = &m->functions[index];
	d = &m->ids[func_id];
	if (!fn->has_body) {
		uint32_t e;
		int32_t r;

		if (!d->link_name)
			return spv_error(c, "function %%%u has no body and no "
					 "name", func_id), -1;
		if (!c->lib)
			return spv_error(c, "function %s is not defined (no "
					 "library to link)", d->link_name), -1;
		e = spv_find_export(c->lib, d->link_name);
		if (e == UINT32_MAX)
			return spv_error(c, "function %s is not defined",
					 d->link_name), -1;
		r = spv_function_ref(c, c->lib, c->lib->functions[e].id);
		(*map)[func_id] = r + 1;
		return r;
	}
	snprintf(name, sizeof(name), "fn%u", func_id);
	fname = d->link_name ? d->link_name : d->name ? d->name : name;
	f = sir_function_create(c->sm, fname);
	if (m == c->user && spv_kernel_name_taken(c, fname)) {
		size_t n = strlen(fname) + 6;
		char *s = malloc(n);

		if (!s)
			return spv_error(c, "out of memory"), -1;
		snprintf(s, n, "%s.impl", fname);
		free(f->name);
		f->name = s;
	}
	(*map)[func_id] = (int32_t)c->sm->num_functions;
	if (!spv_function_signature(c, m, fn, c->sm->num_functions - 1, f))
		return -1;
	if (c->num_work == c->cap_work) {
		uint32_t cap = c->cap_work ? c->cap_work * 2 : 16;
		void *q = realloc(c->work, cap * sizeof(*c->work));

		if (!q)
			return spv_error(c, "out of memory"), -1;
		c->work = q;
		c->cap_work = cap;
	}
	c->work[c->num_work].m = m;
	c->work[c->num_work++].func = index;
	return (int32_t)c->sm->num_functions - 1;
}

int32_t spv_function_by_name(struct spv_conv *c, const char *name)
{
	uint32_t e;

	if (!c->lib)
		return spv_error(c, "%s needs the libclc library, which was "
				 "not given", name), -1;
	e = spv_find_export(c->lib, name);
	if (e == UINT32_MAX)
		return spv_error(c, "built-in %s is not in the library",
				 name), -1;
	return spv_function_ref(c, c->lib, c->lib->functions[e].id);
}

int32_t spv_global_ref(struct spv_conv *c, const struct spv_module *m,
		       uint32_t var_id)
{
	int32_t **map = m == c->user ? &c->user_globals : &c->lib_globals;
	const struct spv_id *d = &m->ids[var_id];
	const uint32_t *w = &m->words[d->def];
	const struct spv_type *pt = spv_type_of_id(m, d->type), *t;
	struct sir_global g = { 0 };
	uint32_t *total;
	char name[32];
	int32_t r;

	if (!*map && !(*map = calloc(m->bound, sizeof(int32_t))))
		return spv_error(c, "out of memory"), -1;
	if ((*map)[var_id])
		return (*map)[var_id] - 1;
	t = pt && pt->kind == SPV_T_PTR ? spv_type_of_id(m, pt->elem) : NULL;
	if (!t || !t->size)
		return spv_error(c, "variable %%%u has no sized type", var_id),
		       -1;
	if (pt->storage == SpvStorageClassWorkgroup) {
		g.space = SIR_SPACE_LOCAL;
		total = &c->sm->local_bytes;
	} else if (pt->storage == SpvStorageClassUniformConstant) {
		g.space = SIR_SPACE_CONSTANT;
		total = &c->sm->constant_bytes;
		g.init = calloc(1, t->size);
		if (!g.init)
			return spv_error(c, "out of memory"), -1;
		if ((w[0] >> 16) > 4 &&
		    !spv_const_bytes(m, w[4], pt->elem, g.init, 0, c->err,
				     c->errsz)) {
			free(g.init);
			return -1;
		}
	} else {
		const char *s = spv_storage_class_name(pt->storage);

		return spv_error(c, "unsupported module-scope variable in "
				 "storage class %s", s ? s : "?"), -1;
	}
	snprintf(name, sizeof(name), "g%u", var_id);
	g.name = (char *)(d->name ? d->name : d->link_name ? d->link_name :
			  name);
	g.size = t->size;
	g.align = d->align > t->align ? d->align : t->align;
	if (g.align > 256 || (g.align & (g.align - 1))) {
		free(g.init);
		return spv_error(c, "variable %s: bad alignment %u", g.name,
				 g.align), -1;
	}
	g.offset = (*total + g.align - 1) / g.align * g.align;
	if (g.offset + (uint64_t)g.size > SPV_MAX_GLOBAL_BYTES) {
		free(g.init);
		return spv_error(c, "module-scope variables exceed %u bytes",
				 SPV_MAX_GLOBAL_BYTES), -1;
	}
	*total = g.offset + g.size;
	r = (int32_t)sir_global_add(c->sm, &g);
	free(g.init);
	(*map)[var_id] = r + 1;
	return r;
}

/*
 * The i-th comma-separated item of "kernel_arg_<what>.<kernel>.a,b,",
 * malloc'ed in *out (NULL when out of memory), whatever its length.
 */
static bool spv_arg_string(const struct spv_module *m, const char *what,
			   const char *kernel, uint32_t i, char **out)
{
	size_t wl = strlen(what), kl = strlen(kernel);
	uint32_t s;

	for (s = 0; s < m->num_strings; s++) {
		const char *p = m->strings[s], *end;

		if (strncmp(p, what, wl) || p[wl] != '.' ||
		    strncmp(p + wl + 1, kernel, kl) || p[wl + 1 + kl] != '.')
			continue;
		p += wl + kl + 2;
		while (i--) {
			p = strchr(p, ',');
			if (!p)
				return false;
			p++;
		}
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		*out = strndup(p, (size_t)(end - p));
		return true;
	}
	return false;
}

/* The id of parameter i of the function at word def (signature checked). */
static uint32_t spv_param_id(const struct spv_module *m, uint32_t def,
			     uint32_t i)
{
	uint32_t at = def + (m->words[def] >> 16);

	while (i--)
		at += m->words[at] >> 16;
	return m->words[at + 2];
}

/*
 * A struct or union argument: clang passes it as a Function-storage pointer
 * decorated FuncParamAttr ByVal. The runtime gives its bytes (the host's
 * layout of the same declaration) like any by-value argument, so it becomes
 * kind VALUE with the pointee's size and alignment while its SIR type stays
 * the private pointer the body reads through; sir_lower_abi() gives the
 * pointer something to point at.
 */
static bool spv_byval_arg(struct spv_conv *c, const struct spv_entry *e,
			  uint32_t i, struct sir_param *p)
{
	const struct spv_module *m = c->user;
	uint32_t id = spv_param_id(m, m->ids[e->func].def, i);
	const struct spv_type *pt = spv_type_of_id(m, m->ids[id].type);
	const struct spv_type *t;

	if (!(m->ids[id].param_attrs &
	      (1u << SpvFunctionParameterAttributeByVal)))
		return spv_error(c, "kernel %s: argument %u is a private "
				 "pointer", e->name, i);
	t = pt && pt->kind == SPV_T_PTR ? spv_type_of_id(m, pt->elem) : NULL;
	if (!t || !t->size)
		return spv_error(c, "kernel %s: argument %u has no sized type",
				 e->name, i);
	if (p->align & (p->align - 1) || p->align > 256)
		return spv_error(c, "kernel %s: argument %u: bad alignment %u",
				 e->name, i, p->align);
	p->kind = SIR_ARG_VALUE;
	p->size = t->size;
	p->align = p->align > t->align ? p->align : t->align;
	return true;
}

static bool spv_kernel_metadata(struct spv_conv *c,
				const struct spv_entry *e,
				struct sir_function *f)
{
	const struct spv_module *m = c->user;
	uint32_t i;

	f->is_kernel = true;
	memcpy(f->reqd_wg_size, e->local_size, sizeof(f->reqd_wg_size));
	memcpy(f->wg_size_hint, e->size_hint, sizeof(f->wg_size_hint));
	f->has_vec_type_hint = e->has_vec_hint;
	f->vec_type_hint = e->vec_hint;
	if (f->ret.kind != SIR_VOID)
		return spv_error(c, "kernel %s does not return void", e->name);
	for (i = 0; i < f->num_params; i++) {
		struct sir_param *p = &f->params[i];
		const uint32_t *fw = &m->words[m->ids[e->func].def];
		const struct spv_type *ft = spv_type_of_id(m, fw[4]);
		char *s = NULL;

		if (p->type.kind == SIR_PTR) {
			switch (p->type.space) {
			case SIR_SPACE_GLOBAL:
				p->kind = SIR_ARG_GLOBAL_PTR;
				break;
			case SIR_SPACE_CONSTANT:
				p->kind = SIR_ARG_CONSTANT_PTR;
				break;
			case SIR_SPACE_LOCAL:
				p->kind = SIR_ARG_LOCAL_PTR;
				break;
			default:
				if (!spv_byval_arg(c, e, i, p))
					return false;
				break;
			}
			if (p->kind != SIR_ARG_VALUE)
				p->size = p->align = 4;
		} else {
			const struct spv_type *pt =
				spv_type_of_id(m, ft->members[i]);

			p->kind = pt && pt->kind == SPV_T_SAMPLER ?
				  SIR_ARG_SAMPLER : SIR_ARG_VALUE;
			p->size = p->align = sir_type_size(p->type);
			p->access = SIR_ACCESS_NONE;
			if (pt && pt->kind == SPV_T_IMAGE) {
				/* Its image words (slb_binary.h). */
				p->kind = SIR_ARG_IMAGE;
				p->size = SLB_IMAGE_ARG_BYTES;
				p->align = 16;
				p->access = pt->image_access ==
						    SpvAccessQualifierWriteOnly ?
					    SIR_ACCESS_WRITE_ONLY :
					    SIR_ACCESS_READ_ONLY;
			}
		}
		if (p->type.kind == SIR_PTR)
			p->access = SIR_ACCESS_NONE;
		free(p->type_name);
		if (!spv_arg_string(m, "kernel_arg_type", e->name, i,
				    &p->type_name))
			p->type_name = spv_type_name_alloc(m, ft->members[i]);
		if (!p->type_name)
			return spv_error(c, "out of memory");
		if (spv_arg_string(m, "kernel_arg_type_qual", e->name, i, &s)) {
			if (!s)
				return spv_error(c, "out of memory");
			p->is_const |= strstr(s, "const") != NULL;
			p->is_restrict |= strstr(s, "restrict") != NULL;
			p->is_volatile |= strstr(s, "volatile") != NULL;
			free(s);
		}
	}
	return true;
}

static bool spv_translate(struct spv_conv *c)
{
	const struct spv_module *m = c->user;
	uint32_t i;
	char msg[256];

	for (i = 0; i < m->num_entries; i++) {
		const struct spv_entry *e = &m->entries[i];
		uint32_t index = spv_function_index(m, e->func);
		int32_t r;

		if (index == UINT32_MAX || !m->functions[index].has_body)
			return spv_error(c, "kernel %s has no body", e->name);
		if (c->user_funcs && c->user_funcs[e->func])
			return spv_error(c, "function %%%u is two entry points",
					 e->func);
		r = spv_function_ref(c, m, e->func);
		if (r < 0)
			return false;
		free(c->sm->functions[r]->name);
		c->sm->functions[r]->name = strdup(e->name);
		if (!c->sm->functions[r]->name)
			return spv_error(c, "out of memory");
		if (!spv_kernel_metadata(c, e, c->sm->functions[r]))
			return false;
	}
	for (i = 0; i < m->num_functions; i++)
		if (m->functions[i].has_body &&
		    spv_function_ref(c, m, m->functions[i].id) < 0)
			return false;
	/* The worklist grows while functions call into the library. */
	for (i = 0; i < c->num_work; i++) {
		const struct spv_module *wm = c->work[i].m;
		uint32_t id = wm->functions[c->work[i].func].id;
		int32_t r = (*spv_func_map(c, wm))[id] - 1;

		if (!spv_convert_function(c, wm, c->work[i].func,
					  c->sm->functions[r]))
			return false;
	}
	for (i = 0; i < c->sm->num_functions; i++) {
		if (!sir_verify(c->sm->functions[i], msg, sizeof(msg)))
			return spv_error(c, "invalid SPIR-V: %s", msg);
	}
	return true;
}

struct sir_module *spirv_to_sir(const uint32_t *words, size_t n,
				const struct spirv_library *lib, char *err,
				size_t errsz)
{
	struct spv_module user;
	struct spv_conv c = { .err = err, .errsz = errsz };
	bool ok;

	if (errsz)
		err[0] = '\0';
	if (!words) {
		snprintf(err, errsz, "no SPIR-V module");
		return NULL;
	}
	if (!spv_module_parse(&user, words, n, false, err, errsz)) {
		spv_module_free(&user);
		return NULL;
	}
	c.user = &user;
	c.lib = lib ? &lib->mod : NULL;
	c.sm = sir_module_create();
	/* A module without kernels is a valid program (OpenCL 1.2 §5.6:
	 * a program is a set of kernels and functions, maybe none). */
	ok = spv_translate(&c);
	free(c.user_funcs);
	free(c.lib_funcs);
	free(c.user_globals);
	free(c.lib_globals);
	free(c.work);
	free(c.byval);
	spv_module_free(&user);
	if (!ok) {
		if (errsz && !err[0])
			snprintf(err, errsz, "invalid SPIR-V module");
		sir_module_destroy(c.sm);
		return NULL;
	}
	return c.sm;
}
