/* Verification: the expected state of every unit of a region, the worker's hooks, setting up (verify.h). */
#include "base/common.h"
#include "model/job.h"
#include "model/job_names.h"
#include "model/pattern.h"
#include "run/verify_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const verify_names[] = { "none", "crc32c", "xxhash", "md5", "sha256", "pattern", "meta", NULL };
const char *const verify_kind_names[VK_NR] = { "corrupt", "no header", "misplaced", "foreign",
					       "lost write", "unknown write", "pattern", "wrong length",
					       "corrupt header" };

/* Expected write numbers kept per unit: 10 bytes each, at most this much in all. */
#define TABLE_MAX (1ULL << 30)

/* ---- the units of a thread's files */

/* A unit's index in its thread's table: the request's file and offset. */
static uint64_t unit_of(const struct vthread *t, const struct verify_ctx *v, unsigned file, uint64_t offset)
{
	const struct vfile *f = &t->files[file < v->nfiles ? file : 0];
	return f->base + (offset - f->start) / v->unit;
}

/* The end of the file that holds unit s: a write's units stay in its file. */
static uint64_t file_end(const struct vthread *t, const struct verify_ctx *v, uint64_t s)
{
	for (unsigned f = 0; f < v->nfiles; f++)
		if (s < t->files[f].base + t->files[f].units)
			return t->files[f].base + t->files[f].units;
	return t->nunits;
}

/* Unit s as a request: its file and offset. */
static void locate(const struct vthread *t, const struct verify_ctx *v, uint64_t s, unsigned *file,
		   uint64_t *offset)
{
	unsigned f = 0;
	while (f + 1 < v->nfiles && s >= t->files[f + 1].base)
		f++;
	*file = f;
	*offset = t->files[f].start + (s - t->files[f].base) * v->unit;
}

static uint64_t units_in(const struct verify_ctx *v, uint32_t len)
{
	return (len + v->unit - 1) / v->unit;
}

/* The units of the write that starts at unit s (0: no write starts there). */
static uint64_t extent(const struct verify_ctx *v, const struct vthread *t, uint64_t s)
{
	uint64_t x = t->table[s], n = 1, end = file_end(t, v, s);
	if (!(x & U_START))
		return 0;
	while (s + n < end && !(t->table[s + n] & U_START) && (t->table[s + n] & U_SEQ) == (x & U_SEQ))
		n++;
	return n;
}

/* A write over part of an earlier one breaks it: what is left of that one is no longer expected. */
static void forget_around(struct vthread *t, uint64_t s, uint64_t n)
{
	uint64_t x = s < t->nunits ? t->table[s] : 0;
	if (x && !(x & U_START)) {
		/* An earlier write covers s from before: back to its start. */
		uint64_t seq = x & U_SEQ;
		for (uint64_t k = s; k-- > 0;) {
			uint64_t y = t->table[k];
			if ((y & U_SEQ) != seq)
				break;
			t->table[k] = y & U_AMBIG;
			if (y & U_START)
				break;
		}
	}
	uint64_t e = s + n;
	x = e < t->nunits ? t->table[e] : 0;
	if (x && !(x & U_START)) {
		/* One runs on past the end: what is left of it after. */
		uint64_t seq = x & U_SEQ;
		for (uint64_t k = e; k < t->nunits && !(t->table[k] & U_START) &&
				     (t->table[k] & U_SEQ) == seq; k++)
			t->table[k] &= U_AMBIG;
	}
}

/* The write numbered seq over units [s, s + n): what they hold now. */
static void record(const struct verify_ctx *v, struct vthread *t, uint64_t s, uint64_t n, uint64_t seq)
{
	if (s >= t->nunits)
		return;
	uint64_t end = file_end(t, v, s);
	if (s + n > end)
		n = end - s;
	forget_around(t, s, n);
	for (uint64_t k = 0; k < n; k++)
		t->table[s + k] = seq | (k ? 0 : U_START) | (t->table[s + k] & U_AMBIG);
}

/* Was the write numbered seq among those an earlier run's state file says were made? */
static bool state_made(const struct vthread *t, unsigned file, uint64_t offset, uint64_t seq)
{
	if (!t->state_loaded)
		return true;
	if (seq > t->state_writes)
		return false;
	if (seq + t->state_depth <= t->state_writes)
		return true;
	/* Of its last ones, only those that completed (fio's verify_state_should_stop). */
	for (unsigned i = 0; i < t->nstate_done; i++)
		if (t->state_done[i].offset == offset && t->state_done[i].file == file)
			return true;
	return false;
}

/* ---- the hooks */

static void prep_write(struct verify_ctx *v, struct vthread *t, unsigned thread, struct io_u *u)
{
	uint64_t s = unit_of(t, v, u->file, u->offset), n = units_in(v, u->len);
	uint64_t seq = ++t->seq;
	if (!u->buf) {
		/*
		 * A replay (verify_only): what the earlier run's write there was
		 * numbered.  With its state file: only the writes it made, and of
		 * the last ones only those that completed.
		 */
		if (state_made(t, u->file, u->offset, seq))
			record(v, t, s, n, seq);
		return;
	}
	for (uint64_t k = s; k < s + n && k < t->nunits; k++) {
		if (t->busy[k]) /* the order on disk of the two is unknown */
			t->table[k] |= U_AMBIG;
		else /* a new busy spell */
			t->table[k] &= ~U_AMBIG;
		if (t->busy[k] < UINT16_MAX)
			t->busy[k]++;
	}
	t->snap[u->idx] = seq;
	verify_stamp(v, thread, u, seq);
}

static void hook_prep(void *arg, unsigned thread, struct io_u *u)
{
	struct verify_ctx *v = arg;
	struct vthread *t = &v->t[thread];
	if (v->read_only)
		return;
	if (u->op == IO_WRITE) {
		prep_write(v, t, thread, u);
		return;
	}
	if (u->op != IO_READ)
		return;
	/* A read's snapshot: any write issued after it has a higher number. */
	uint64_t s = unit_of(t, v, u->file, u->offset), n = units_in(v, u->len);
	t->snap[u->idx] = t->seq;
	/* Only read-backs are asked for inside a round: the workload's reads wait for its end. */
	t->rb[u->idx] = t->in_round;
	for (uint64_t k = s; k < s + n && k < t->nunits; k++)
		if (t->busy[k])
			t->snap[u->idx] = UINT64_MAX;
}

static void complete_write(struct verify_ctx *v, struct vthread *t, const struct io_u *u)
{
	uint64_t s = unit_of(t, v, u->file, u->offset), n = units_in(v, u->len);
	t->st.written++;
	for (uint64_t k = s; k < s + n && k < t->nunits; k++)
		if (t->busy[k])
			t->busy[k]--;
	/* Recorded when done: a request prepared but never submitted promises nothing. */
	record(v, t, s, n, t->snap[u->idx]);
	if (t->done) {
		t->done[t->ndone % v->depth] = (struct vdone){ u->offset, u->file };
		t->ndone++;
	}
}

/* Did a write of these units start or run while the read did?  Then they may hold either. */
static bool overlapped(const struct vthread *t, uint64_t s, uint64_t n, uint64_t snap)
{
	if (snap == UINT64_MAX)
		return true;
	for (uint64_t k = s; k < s + n && k < t->nunits; k++)
		if (t->busy[k] || (t->table[k] & U_SEQ) > snap || (t->table[k] & U_AMBIG))
			return true;
	return false;
}

static int complete_read(struct verify_ctx *v, struct vthread *t, unsigned thread, const struct io_u *u)
{
	uint64_t s = unit_of(t, v, u->file, u->offset), n = units_in(v, u->len);
	uint64_t want = s < t->nunits ? t->table[s] : 0;
	bool bad = false, readback = t->rb[u->idx];
	t->rb[u->idx] = false;
	if (readback) {
		/* The time reading back: from the round's start to each read-back's completion, also a late one. */
		uint64_t now = now_ns();
		t->st.readback_ns += now > t->last_read ? now - t->last_read : 0;
		t->last_read = now;
		t->st.readbacks++;
	}
	/* Blocks this job never wrote hold the layout's data; a read across writes is no block of one. */
	if (!(want & U_START) || extent(v, t, s) != n)
		return 0;
	if (overlapped(t, s, n, t->snap[u->idx])) {
		t->st.overlapped++;
		return 0;
	}
	bad = verify_block(v, thread, u, want & U_SEQ);
	/* Checked by a read-back (also one that completes after its round): not read back again. */
	if (readback)
		t->table[s] |= U_CHECKED;
	return bad && v->fatal ? EILSEQ : 0;
}

static int hook_complete(void *arg, unsigned thread, const struct io_u *u, uint64_t lat_ns)
{
	struct verify_ctx *v = arg;
	struct vthread *t = &v->t[thread];
	(void)lat_ns;
	if (v->read_only) {
		if (u->op != IO_READ || v->fake)
			return 0;
		return verify_block(v, thread, u, 0) && v->fatal ? EILSEQ : 0;
	}
	if (u->op == IO_WRITE) {
		complete_write(v, t, u);
		if (!v->backlog)
			return 0;
		/* Room for what completes in the same batch as the one that asked. */
		if (t->nring < v->backlog + v->depth)
			t->ring[t->nring++] = unit_of(t, v, u->file, u->offset);
		/* A batch larger than the backlog goes on with each new write, as fio's. */
		return t->nring >= v->backlog || t->credit ? HOOK_READBACK : 0;
	}
	if (u->op != IO_READ || v->fake)
		return 0;
	return complete_read(v, t, thread, u);
}

static void round_end(struct vthread *t)
{
	if (t->in_round && t->round_final) {
		t->final_rounds++;
		t->loop_base = t->seq;
	}
	t->in_round = false;
}

/* A written block not yet read back, from unit *scan on: its first unit and units. */
static bool next_unchecked(const struct verify_ctx *v, struct vthread *t, uint64_t *s, uint64_t *n)
{
	while (t->scan < t->nunits) {
		uint64_t k = t->scan, x = t->table[k];
		if (!(x & U_START)) {
			t->scan++;
			continue;
		}
		uint64_t e = extent(v, t, k), off;
		unsigned f;
		t->scan += e;
		if (x & U_CHECKED)
			continue;
		/*
		 * verify_state_load without verify_only: the job wrote its writes
		 * again, and checks those the earlier run had made (fio's verify
		 * stops where that run did).
		 */
		locate(t, v, k, &f, &off);
		/* Each loop's verify checks as many of that loop's writes (fio counts its reads per loop). */
		if (state_made(t, f, off, (x & U_SEQ) - t->loop_base)) {
			*s = k;
			*n = e;
			return true;
		}
	}
	return false;
}

/* Blocks of the ring not yet read back, from its position on. */
static uint64_t ring_waiting(const struct vthread *t)
{
	uint64_t n = 0;
	for (unsigned i = t->ring_pos; i < t->nring; i++)
		n += (t->table[t->ring[i]] & U_START) && !(t->table[t->ring[i]] & U_CHECKED);
	return n;
}

static bool hook_readback(void *arg, unsigned thread, bool final, unsigned *file, uint64_t *offset,
			  uint32_t *len)
{
	struct verify_ctx *v = arg;
	struct vthread *t = &v->t[thread];
	uint64_t s, n;
	if (!t->in_round) {
		t->in_round = true;
		t->round_final = final;
		t->last_read = now_ns();
		t->ring_pos = 0;
		t->scan = 0;
		/* Nothing is in flight now, nor will be: writes prepared and never issued are not. */
		if (final)
			memset(t->busy, 0, t->nunits * sizeof(*t->busy));
	}
	if (!final) {
		/*
		 * fio's verify_backlog_batch: a read-back checks that many of the oldest
		 * writes not yet read back; fewer than the backlog leave the rest for the
		 * next (due when the backlog is full again), more go on with later writes.
		 * A batch that leaves a whole multiple of the backlog waiting is followed
		 * by another at once, as fio's (its count of logged writes is again a
		 * multiple): writes completed beyond the backlog (a queue deeper than
		 * it) are read back in the same round.
		 */
		if (!t->credit && t->ring_pos == 0)
			t->credit = v->batch;
		for (;;) {
			while (t->credit && t->ring_pos < t->nring) {
				s = t->ring[t->ring_pos++];
				/* Overwritten since, or checked already: the later write is in the ring too. */
				if (!(t->table[s] & U_START) || (t->table[s] & U_CHECKED))
					continue;
				t->credit--;
				n = extent(v, t, s);
				locate(t, v, s, file, offset);
				*len = (uint32_t)(n * v->unit);
				/* Marked now: a later batch of this round must not take it again. */
				t->table[s] |= U_CHECKED;
				return true;
			}
			uint64_t left = ring_waiting(t);
			if (t->credit || !left || left % v->backlog)
				break;
			t->credit = v->batch;
		}
		memmove(t->ring, t->ring + t->ring_pos, (t->nring - t->ring_pos) * sizeof(*t->ring));
		t->nring -= t->ring_pos;
		t->ring_pos = 0;
		round_end(t);
		return false;
	}
	/* fio's experimental_verify replays the first loop's writes once, and no later loop's. */
	bool more = v->final && !(v->experimental && t->final_rounds);
	if (more && next_unchecked(v, t, &s, &n)) {
		locate(t, v, s, file, offset);
		*len = (uint32_t)(n * v->unit);
		return true;
	}
	/* The backlog's ring holds what this round checked. */
	t->nring = 0;
	t->credit = 0;
	round_end(t);
	return false;
}

/* ---- setting up */

static int new_thread(struct verify_ctx *v, const struct job *j, unsigned i)
{
	struct vthread *t = &v->t[i];
	if (!v->read_only) {
		t->table = calloc(t->nunits, sizeof(uint64_t));
		t->busy = calloc(t->nunits, sizeof(uint16_t));
		t->snap = calloc(v->depth, sizeof(uint64_t));
		t->rb = calloc(v->depth, sizeof(bool));
		if (!t->table || !t->busy || !t->snap || !t->rb)
			return -1;
	}
	if (v->backlog && !(t->ring = calloc(v->backlog + v->depth, sizeof(uint64_t))))
		return -1;
	if (v->md && !(t->md = EVP_MD_CTX_new()))
		return -1;
	if (v->dump && !(t->expect = malloc(v->maxbs)))
		return -1;
	if (v->save && !(t->done = calloc(v->depth, sizeof(*t->done))))
		return -1;
	data_init(&t->dg, &j->data, v->seed);
	return 0;
}

/*
 * Each thread's files: where its region of each starts and how many units
 * it has.  One file: the job's region (threads sharing it each take a slice,
 * or --offset_increment apart); several: the regions the runner gave, a
 * shared file's also sliced among its threads.
 */
static int size_tables(struct verify_ctx *v, const struct job *j, const struct verify_file *files,
		       struct ig_err *e)
{
	char b[32];
	unsigned n = v->nthreads;
	uint64_t most = 0;
	v->unit = pattern_unit(j);
	for (unsigned i = 0; i < n; i++) {
		struct vthread *t = &v->t[i];
		t->files = xcalloc(v->nfiles, sizeof(*t->files));
		for (unsigned f = 0; f < v->nfiles; f++) {
			struct vfile *vf = &t->files[f];
			bool one = v->nfiles == 1 || !files;
			uint64_t size = one ? j->size : files[i * v->nfiles + f].size;
			vf->units = size / v->unit / (v->split ? n : 1);
			vf->start = one ? j->offset + (uint64_t)i * (v->split ? 0 : j->offset_increment) :
					  files[i * v->nfiles + f].start;
			if (v->split)
				vf->start += (uint64_t)i * vf->units * v->unit;
			vf->base = t->nunits;
			t->nunits += vf->units;
		}
		most = t->nunits > most ? t->nunits : most;
		if (!v->read_only && !t->nunits)
			return err_set(e, EXIT_USAGE, "job %s: --verify: each of %u threads needs at least one block of the region",
				       j->name, n);
	}
	if (!v->read_only && most > TABLE_MAX / 10 / n)
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify keeps 10 bytes per block: %" PRIu64 " blocks x %u threads is more than %s (use a larger --bs or a smaller --size)",
			       j->name, most, n, fmt_bytes(b, sizeof(b), (double)TABLE_MAX));
	return 0;
}

/* layout: only what makes blocks (verify_layout_block), no table of the region's writes. */
static struct verify_ctx *build(const struct job *j, unsigned nthreads, unsigned nfiles,
				const struct verify_file *files, unsigned first_thread, bool layout,
				struct ig_err *e)
{
	struct verify_ctx *v = xcalloc(1, sizeof(*v));
	/*
	 * Threads sharing their files (--filename) each verify their own slice
	 * of each file's region, or with --offset_increment their own region.
	 */
	v->split = j->filename[0] && nthreads > 1 && !j->offset_increment;
	if (j->filename[0] && nthreads > 1 && j->offset_increment &&
	    j->offset_increment < (nfiles > 1 && files ? files[0].size : j->size)) {
		char b[32], c[32];
		err_set(e, EXIT_USAGE,
			"job %s: --verify: the %u threads' regions of the shared file overlap (--offset_increment=%s is less than --size=%s)",
			j->name, nthreads, fmt_bytes(b, sizeof(b), (double)j->offset_increment),
			fmt_bytes(c, sizeof(c), (double)j->size));
		free(v);
		return NULL;
	}
	v->read_only = !rw_writes(j->rw) || layout;
	v->nthreads = nthreads;
	v->nfiles = nfiles ? nfiles : 1;
	v->t = xcalloc(nthreads, sizeof(*v->t));
	v->paths = xcalloc((size_t)nthreads * v->nfiles, sizeof(*v->paths));
	for (unsigned i = 0; i < nthreads * v->nfiles; i++)
		v->paths[i] = xstrdup(files ? files[i].path : j->name);
	if (size_tables(v, j, files, e)) {
		verify_free(v);
		return NULL;
	}
	snprintf(v->name, sizeof(v->name), "%s", j->name);
	v->algo = j->verify;
	v->fio = j->plan.fio_verify;
	v->fio_type = verify_fio_type(j);
	/* fio checks a block's write number where it can know it: a writer of one size, size-bound. */
	v->fio_numberio = !j->verify_only && pattern_min_bs(j) == pattern_max_bs(j) && !j->time_based;
	v->depth = (j->engine->flags & ENGINE_SYNC) && !job_offload(j) ? 1 : j->iodepth;
	v->first_thread = first_thread;
	v->maxbs = pattern_max_bs(j);
	v->interval = j->verify_interval;
	uint64_t units = v->t[0].nunits;
	/* fio: backlog read-backs are part of the verify phase; do_verify=0 has neither. */
	v->backlog = !j->do_verify || v->read_only ? 0 :
		     j->verify_backlog && j->verify_backlog < units ? j->verify_backlog :
		     j->verify_backlog ? (unsigned)units : 0;
	v->batch = j->verify_backlog_batch ? j->verify_backlog_batch : v->backlog;
	v->final = !v->read_only && (j->do_verify || j->verify_only);
	v->fatal = j->verify_fatal;
	v->dump = j->verify_dump;
	v->experimental = j->experimental_verify;
	v->save = j->verify_state_save && !v->read_only && !j->verify_only;
	/* The null engine moves no data: its reads are counted, nothing is checked (fio's "fake" I/O). */
	v->fake = j->engine->flags & ENGINE_NO_FILE;
	v->pattern = j->data;
	v->check_pattern = j->verify_pattern && j->data.mode == DATA_PATTERN;
	/* Random data from each write's own seed: what was expected there can be made again (verify_dump). */
	v->fill = j->data.mode == DATA_RANDOM && !j->data.compress && !j->data.dedupe && v->algo != VERIFY_PATTERN;
	/* The job's seed (as the worker draws it): a later run with the same options finds the same. */
	v->seed = (j->randseed ^ ((uint64_t)j->plan.index << 40)) | 1;
	if (v->algo == VERIFY_MD5 || v->algo == VERIFY_SHA256)
		v->md = v->algo == VERIFY_MD5 ? EVP_md5() : EVP_sha256();
	for (unsigned i = 0; i < nthreads; i++) {
		if (new_thread(v, j, i)) {
			verify_free(v);
			err_set(e, EXIT_IOERR, "job %s: out of memory for --verify's block table", j->name);
			return NULL;
		}
		if (j->verify_state_load && !v->read_only && verify_load_state(v, i, e)) {
			verify_free(v);
			return NULL;
		}
	}
	v->hooks = (struct worker_hooks){
		.arg = v,
		.prep = hook_prep,
		.complete = hook_complete,
		.readback = (v->final || v->backlog) ? hook_readback : NULL,
		.plan_only = j->verify_only,
		.split = v->split,
		.per_loop = v->final && !j->verify_only && !j->time_based,
		.fills = v->fill && !v->read_only,
	};
	return v;
}

/* ---- a verifying job's layout */

bool verify_layout_wanted(const struct job *j)
{
	return j->verify && !j->verify_only && !(j->engine->flags & ENGINE_NO_FILE);
}

bool verify_layout_checked(const struct job *j)
{
	return verify_layout_wanted(j) && rw_reads(j->rw) && !rw_writes(j->rw);
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

int verify_layout_unit(const struct job *j, uint64_t *unit, char *why, size_t len)
{
	uint64_t mn, mx, vi = j->verify_interval, n = j->data.pattern_len;
	uint64_t skip = j->rw_skip < 0 ? (uint64_t)-j->rw_skip : (uint64_t)j->rw_skip;
	const char *algo = verify_names[j->verify];
	/* A reader's blocks are its reads; a writer's, what a later reader finds where it did not write. */
	pattern_sizes(j, verify_layout_checked(j) ? IO_READ : IO_WRITE, &mn, &mx);
	/* Every read starts a multiple of g after its region's (or zone's) start, and is g's multiple long. */
	uint64_t g = gcd64(gcd64(gcd64(mn, mx), gcd64(pattern_unit(j), skip)), j->bs);
	bool pattern = j->data.mode == DATA_PATTERN &&
		       (j->verify == VERIFY_PATTERN || (j->verify == VERIFY_META && j->verify_pattern));
	char b1[32], b2[32], hint[96] = "";
	if (mn == mx && g % mn == 0) {
		*unit = mn; /* one size on its own grid: each block as the job would write it */
		return 0;
	}
	if (pattern && j->data.nfmt) {
		snprintf(why, len, "job %s reads blocks of %s to %s or off their grid, and --verify_pattern's %%o is each block's own offset: no block laid out before holds the pattern a read of another block expects",
			 j->name, fmt_bytes(b1, sizeof(b1), (double)mn), fmt_bytes(b2, sizeof(b2), (double)mx));
		return -1;
	}
	if (j->verify == VERIFY_PATTERN) {
		if (g % n == 0) {
			*unit = 4096 / n * n; /* a pattern from the region's start: every read meets it in phase */
			return 0;
		}
		snprintf(why, len, "job %s reads blocks that start at offsets not a multiple of its %" PRIu64 "-byte --verify_pattern, and a pattern laid out from the region's start would not begin at a read's start",
			 j->name, n);
		return -1;
	}
	if (vi && g % vi == 0 && (!pattern || vi % n == 0)) {
		*unit = vi; /* one header every verify_interval: a read of any size meets whole pieces */
		return 0;
	}
	if (g >= sizeof(struct vhdr) && (!pattern || g % n == 0))
		snprintf(hint, sizeof(hint), "; give --verify_interval=%" PRIu64 " (it divides every block size and offset)", g);
	if (vi)
		snprintf(why, len, "job %s reads blocks of %s to %s at offsets that --verify_interval=%" PRIu64 " does not divide%s, so no laid-out piece's header meets a read's%s",
			 j->name, fmt_bytes(b1, sizeof(b1), (double)mn), fmt_bytes(b2, sizeof(b2), (double)mx), vi,
			 pattern && vi % n ? " (or the pattern's length)" : "", hint);
	else
		snprintf(why, len, "job %s reads blocks of %s to %s with --verify=%s, and a header laid out for one block is no header for a read of another size or offset%s",
			 j->name, fmt_bytes(b1, sizeof(b1), (double)mn), fmt_bytes(b2, sizeof(b2), (double)mx), algo, hint);
	return -1;
}

struct verify_ctx *verify_layout_new(const struct job *j, unsigned nthreads, struct ig_err *e)
{
	return build(j, nthreads, 1, NULL, 1, true, e);
}

struct verify_ctx *verify_new(const struct job *j, unsigned nthreads, unsigned nfiles,
			      const struct verify_file *files, unsigned first_thread, struct ig_err *e)
{
	return build(j, nthreads, nfiles, files, first_thread, false, e);
}

void verify_thread_starts(struct verify_ctx *v, const uint64_t *start)
{
	/* One file a thread (several: verify_new had each region already). */
	for (unsigned i = 0; !v->split && v->nfiles == 1 && i < v->nthreads; i++)
		v->t[i].files[0].start = start[i];
}

const struct worker_hooks *verify_hooks(struct verify_ctx *v)
{
	return &v->hooks;
}

int verify_algo(const struct verify_ctx *v)
{
	return v->algo;
}

static int cmp_bad(const void *a, const void *b)
{
	const struct verify_bad *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

const struct verify_stats *verify_stats(const struct verify_ctx *v)
{
	return &v->total;
}

const struct verify_stats *verify_thread_stats(const struct verify_ctx *v, unsigned thread)
{
	return &v->t[thread < v->nthreads ? thread : 0].st;
}

const struct verify_stats *verify_collect(struct verify_ctx *v)
{
	struct verify_stats *s = &v->total;
	struct verify_bad all[VERIFY_REPORT_MAX * 4];
	unsigned n = 0;
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < v->nthreads; i++) {
		struct vthread *t = &v->t[i];
		round_end(t);
		s->written += t->st.written;
		s->checked += t->st.checked;
		s->bytes += t->st.bytes;
		s->readbacks += t->st.readbacks;
		s->bad += t->st.bad;
		s->overlapped += t->st.overlapped;
		s->dumped += t->st.dumped;
		s->readback_ns = t->st.readback_ns > s->readback_ns ? t->st.readback_ns : s->readback_ns;
		for (int k = 0; k < VK_NR; k++)
			s->by_kind[k] += t->st.by_kind[k];
		for (unsigned k = 0; k < t->st.nkept; k++) {
			if (n == ARRAY_SIZE(all)) {
				qsort(all, n, sizeof(all[0]), cmp_bad);
				n = VERIFY_REPORT_MAX;
			}
			all[n++] = t->st.list[k];
		}
	}
	qsort(all, n, sizeof(all[0]), cmp_bad);
	s->nkept = n < VERIFY_REPORT_MAX ? n : VERIFY_REPORT_MAX;
	memcpy(s->list, all, s->nkept * sizeof(all[0]));
	return s;
}

void verify_free(struct verify_ctx *v)
{
	if (!v)
		return;
	for (unsigned i = 0; v->t && i < v->nthreads; i++) {
		free(v->t[i].table);
		free(v->t[i].busy);
		free(v->t[i].snap);
		free(v->t[i].ring);
		free(v->t[i].rb);
		free(v->t[i].files);
		free(v->t[i].expect);
		free(v->t[i].done);
		free((void *)v->t[i].state_done);
		EVP_MD_CTX_free(v->t[i].md);
	}
	for (unsigned i = 0; v->paths && i < v->nthreads * v->nfiles; i++)
		free((void *)v->paths[i]);
	free(v->paths);
	free(v->t);
	free(v);
}

void verify_describe(const struct verify_bad *b, char *buf, size_t len)
{
	switch (b->kind) {
	case VK_CORRUPT:
	{
		/* at: the first byte shown << 8 | how many (8 bytes of a longer checksum). */
		unsigned from = (unsigned)(b->at >> 8), n = (unsigned)(b->at & 0xff);
		char where[48] = "";
		if (from || n == 8)
			snprintf(where, sizeof(where), " (bytes %u-%u)", from, from + n - 1);
		snprintf(buf, len, "corrupt: the header's checksum%s is %0*" PRIx64 ", the block's data gives %0*" PRIx64,
			 where, (int)(2 * n), b->expected, (int)(2 * n), b->found);
	}
		break;
	case VK_NO_HEADER:
		if (b->at < VERIFY_META + 1)
			snprintf(buf, len, "written with --verify=%s, not this job's --verify", verify_names[b->at]);
		else
			snprintf(buf, len, "corrupt: no iogauge header (magic %08" PRIx64 ", expected %08" PRIx64 ")",
				 b->found, b->expected);
		break;
	case VK_MISPLACED:
		snprintf(buf, len, "misplaced: it holds the block written for offset %" PRIu64, b->found);
		break;
	case VK_FOREIGN:
		snprintf(buf, len, "another job's or run's block: seed %" PRIu64 " thread %" PRIu64 ", expected seed %" PRIu64 " thread %u",
			 b->found, b->at, b->expected, b->thread);
		break;
	case VK_LOST:
		snprintf(buf, len, "lost write: it holds write #%" PRIu64 ", but write #%" PRIu64 " was the last one there",
			 b->found, b->expected);
		break;
	case VK_NEWER:
		snprintf(buf, len, "unknown write: it holds write #%" PRIu64 ", newer than the last one made there (#%" PRIu64 ")",
			 b->found, b->expected);
		break;
	case VK_PATTERN:
		snprintf(buf, len, "pattern mismatch at offset %" PRIu64 ": expected 0x%02" PRIx64 ", found 0x%02" PRIx64,
			 b->at, b->expected, b->found);
		break;
	case VK_LENGTH:
		snprintf(buf, len, "wrong length: its header was written for %" PRIu64 " bytes, %" PRIu64 " were read",
			 b->found, b->expected);
		break;
	case VK_HEADER:
		snprintf(buf, len, "corrupt header: fio's header holds the crc %08" PRIx64 ", its bytes give %08" PRIx64,
			 b->expected, b->found);
		break;
	default:
		snprintf(buf, len, "bad block");
	}
}
