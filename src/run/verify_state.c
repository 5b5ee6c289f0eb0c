/*
 * fio's verify state files (verify_state_save, verify_state_load): how far
 * a writing job got, local-JOBNAME-N-verify.state in the current directory.
 * `iogauge fio` writes fio 3.33's binary file, which fio loads too; the
 * other commands write iogauge's own text; both read either.
 *
 * fio's (all little-endian): a header of three u64, version 3, the size of
 * what follows and its crc32c; then u64 completions, u32 depth, u32 files,
 * u64 writes issued (numberio), u64 the thread's index in the run, u64
 * use64 and 48 bytes of its random state, 64 bytes of the job's name, and
 * each completion as u64 file number and u64 offset, newest first.
 */
#include "run/verify.h"
#include "base/common.h"
#include "run/verify_int.h"

#include <errno.h>
#include <inttypes.h>
#include <isa-l/crc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void verify_state_name(const char *job, unsigned thread_index, char *buf, size_t len)
{
	char name[256];
	snprintf(name, sizeof(name), "%s", job);
	for (char *c = name; *c; c++)
		if (*c == '/')
			*c = '.'; /* as fio escapes it */
	snprintf(buf, len, "local-%s-%u-verify.state", name, thread_index);
}

/*
 * iogauge's own text file: version 2 names each completed write's file
 * among the thread's ("FILE OFFSET"); version 1 (offsets alone) is read as
 * the first file's.
 */
#define STATE_MAGIC "iogauge-verify-state "

#define FIO_STATE_VERSION 3
#define FIO_STATE_FIXED 152 /* what follows the header, before the completions */
#define FIO_STATE_NAME 64

static void put64(uint8_t *p, uint64_t x)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(x >> (8 * i));
}

static void put32(uint8_t *p, uint32_t x)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(x >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t x = 0;
	for (int i = 7; i >= 0; i--)
		x = x << 8 | p[i];
	return x;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t state_crc(const uint8_t *p, size_t n)
{
	return crc32_iscsi((unsigned char *)p, (int)n, 0xffffffffu);
}

/* The last completions of thread t, newest first (fio's order). */
static const struct vdone *done_at(const struct verify_ctx *v, const struct vthread *t, unsigned k)
{
	return &t->done[(t->ndone - 1 - k) % v->depth];
}

static int save_fio(const struct verify_ctx *v, const struct vthread *t, unsigned index, FILE *f)
{
	unsigned n = t->ndone < v->depth ? t->ndone : v->depth;
	size_t size = FIO_STATE_FIXED + 16 * (size_t)n;
	uint8_t *b = xcalloc(1, 24 + size), *s = b + 24;
	put64(s, n);
	put32(s + 8, v->depth);
	put32(s + 12, v->nfiles);
	put64(s + 16, t->seq);
	put64(s + 24, index);
	/* use64 0 and a random state of zeros: fio reads neither back. */
	snprintf((char *)s + 88, FIO_STATE_NAME, "%s", v->name);
	for (unsigned k = 0; k < n; k++) {
		put64(s + 152 + 16 * k, done_at(v, t, k)->file);
		put64(s + 160 + 16 * k, done_at(v, t, k)->offset);
	}
	put64(b, FIO_STATE_VERSION);
	put64(b + 8, size);
	put64(b + 16, state_crc(s, size));
	size_t w = fwrite(b, 1, 24 + size, f);
	free(b);
	return w == 24 + size ? 0 : -1;
}

int verify_save_state(const struct verify_ctx *v, struct ig_err *e)
{
	for (unsigned i = 0; v->save && i < v->nthreads; i++) {
		const struct vthread *t = &v->t[i];
		char path[PATH_MAX];
		unsigned index = v->first_thread - 1 + i;
		verify_state_name(v->name, index, path, sizeof(path));
		FILE *f = fopen(path, "w");
		if (!f)
			return err_set(e, EXIT_IOERR, "job %s: verify_state_save: %s: %s", v->name, path,
				       strerror(errno));
		int rc = 0;
		if (v->fio) {
			rc = save_fio(v, t, index, f);
		} else {
			unsigned n = t->ndone < v->depth ? t->ndone : v->depth;
			fprintf(f, "%s2\njob %s\nthread %u\ndepth %u\nwrites %" PRIu64 "\ncompleted %u\n", STATE_MAGIC,
				v->name, index, v->depth, t->seq, n);
			for (unsigned k = 0; k < n; k++)
				fprintf(f, "%u %" PRIu64 "\n", done_at(v, t, k)->file, done_at(v, t, k)->offset);
		}
		if (fclose(f) || rc)
			return err_set(e, EXIT_IOERR, "job %s: verify_state_save: %s: %s", v->name, path,
				       strerror(errno ? errno : EIO));
	}
	return 0;
}

/* iogauge's text file, its first line read already. */
static bool load_text(FILE *f, const char *line, struct vthread *t)
{
	char name[256];
	unsigned idx, depth, n, version = 0;
	uint64_t writes;
	if (sscanf(line + strlen(STATE_MAGIC), "%u", &version) != 1 || (version != 1 && version != 2) ||
	    fscanf(f, "job %255s thread %u depth %u writes %" SCNu64 " completed %u", name, &idx, &depth, &writes,
		   &n) != 5 || n > depth || depth > 65536)
		return false;
	struct vdone *done = xcalloc(n ? n : 1, sizeof(*done));
	for (unsigned k = 0; k < n; k++) {
		bool ok = version == 1 ? fscanf(f, "%" SCNu64, &done[k].offset) == 1 :
					 fscanf(f, "%u %" SCNu64, &done[k].file, &done[k].offset) == 2;
		if (!ok) {
			free(done);
			return false;
		}
	}
	t->state_writes = writes;
	t->state_depth = depth;
	t->state_done = done;
	t->nstate_done = n;
	return true;
}

/* fio's binary file: its header checked (version, size, crc) as fio checks it. */
static bool load_fio(FILE *f, struct vthread *t)
{
	uint8_t h[24];
	rewind(f);
	if (fread(h, 1, sizeof(h), f) != sizeof(h) || get64(h) != FIO_STATE_VERSION)
		return false;
	uint64_t size = get64(h + 8);
	if (size < FIO_STATE_FIXED || size > (1u << 24))
		return false;
	uint8_t *s = xcalloc(1, size);
	bool ok = fread(s, 1, size, f) == size && state_crc(s, size) == get64(h + 16);
	uint64_t n = ok ? get64(s) : 0;
	uint32_t depth = ok ? get32(s + 8) : 0;
	ok = ok && n <= depth && depth <= 65536 && size >= FIO_STATE_FIXED + 16 * n;
	if (!ok) {
		free(s);
		return false;
	}
	struct vdone *done = xcalloc(n ? n : 1, sizeof(*done));
	for (uint64_t k = 0; k < n; k++) {
		done[k].file = (unsigned)get64(s + 152 + 16 * k);
		done[k].offset = get64(s + 160 + 16 * k);
	}
	t->state_writes = get64(s + 16);
	t->state_depth = depth;
	t->state_done = done;
	t->nstate_done = (unsigned)n;
	free(s);
	return true;
}

int verify_load_state(struct verify_ctx *v, unsigned thread, struct ig_err *e)
{
	struct vthread *t = &v->t[thread];
	char path[PATH_MAX], line[512];
	verify_state_name(v->name, v->first_thread - 1 + thread, path, sizeof(path));
	FILE *f = fopen(path, "rb");
	if (!f)
		return err_set(e, EXIT_USAGE, "job %s: verify_state_load: %s: %s (verify_state_save=1 writes it)",
			       v->name, path, strerror(errno));
	bool text = fgets(line, sizeof(line), f) && !strncmp(line, STATE_MAGIC, strlen(STATE_MAGIC));
	bool ok = text ? load_text(f, line, t) : load_fio(f, t);
	fclose(f);
	if (!ok)
		return err_set(e, EXIT_USAGE, "job %s: verify_state_load: %s is neither fio's verify state file nor iogauge's",
			       v->name, path);
	t->state_loaded = true;
	return 0;
}
