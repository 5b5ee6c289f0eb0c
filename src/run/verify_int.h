/* Verification's own parts, shared by its files (verify.c, verify_block.c); not for others. */
#ifndef IOGAUGE_VERIFY_INT_H
#define IOGAUGE_VERIFY_INT_H

#include "model/data.h"
#include "run/verify.h"
#include "run/worker.h"
#include "model/engine.h"

#include <openssl/evp.h>
#include <limits.h>

#define VHDR_MAGIC 0x46564749u /* "IGVF" */
#define VHDR_VERSION 2

/* The header at the start of every written block or verify_interval piece (the machine's byte order). */
struct vhdr {
	uint32_t magic;
	uint8_t version;
	uint8_t algo;
	uint16_t size; /* sizeof(struct vhdr) */
	uint32_t len;  /* the bytes this header covers */
	uint32_t thread;
	uint64_t offset; /* where those bytes belong */
	uint64_t seed;   /* the job's */
	uint64_t seq;    /* the thread's write number, from 1 */
	uint8_t csum[32]; /* of the bytes covered with this field zeroed (meta: of the header alone) */
};

/*
 * The state of a unit of a thread's region: the write number of the last
 * write covering it (0: none), whether that write starts there, whether it
 * was read back since, and AMBIG: two writes of it were in flight at once
 * (it may hold either, or parts of both) in the current busy spell.
 */
#define U_AMBIG (1ULL << 63)
#define U_CHECKED (1ULL << 62)
#define U_START (1ULL << 61)
#define U_SEQ (U_START - 1)

/* A file of a thread: its region's first byte, its first unit in the thread's table, its units. */
struct vfile {
	uint64_t start, base, units;
};

/* A completed write, for verify_state_save: its file among the thread's and its offset. */
struct vdone {
	uint64_t offset;
	unsigned file;
};

struct vthread {
	uint64_t *table;   /* per unit, as above: the thread's files one after another */
	uint16_t *busy;    /* writes in flight on each unit */
	uint64_t *snap;    /* per request slot: a read's first unit when issued; UINT64_MAX: a write was in flight */
	bool *rb;          /* per request slot: the read is a read-back (it checks its block off) */
	struct vfile *files; /* v->nfiles */
	uint64_t nunits;   /* all its files' */
	uint64_t seq;      /* last write number stamped */
	uint64_t *ring;    /* verify_backlog: first units of writes not yet read back, oldest first */
	unsigned nring, ring_pos;
	uint64_t credit;   /* verify_backlog_batch: blocks still to read back of the batch begun */
	uint64_t scan;     /* final read-back: next unit */
	bool in_round, round_final;
	unsigned final_rounds;
	uint64_t last_read; /* the round's start, then its last read-back's completion */
	EVP_MD_CTX *md;
	struct data_gen dg;  /* the data of verified writes, from each write's own seed */
	uint8_t *expect;     /* verify_dump: the block expected (the largest request) */
	struct vdone *done;  /* verify_state_save: the last completed writes (a ring) */
	unsigned ndone;
	uint64_t loop_base;     /* the last write number before this loop's first (set at each loop's read-back) */
	bool state_loaded;      /* verify_state_load: the earlier run's state file was read */
	uint64_t state_writes;  /* ... the writes it made */
	const struct vdone *state_done; /* ... and its last ones that completed */
	unsigned nstate_done, state_depth;
	unsigned dumps;
	struct verify_stats st;
	char pad[64]; /* threads' counters on their own cache lines */
};

struct verify_ctx {
	struct worker_hooks hooks;
	int algo;
	char name[64];
	uint64_t unit, seed, interval, maxbs;
	unsigned nthreads, nfiles, backlog, depth, first_thread;
	uint64_t batch;    /* verify_backlog_batch: blocks a read-back checks (default: the backlog) */
	bool final, split, read_only, fatal, dump, fake, experimental, check_pattern, fill, save;
	/*
	 * fio: the headers are fio 3.33's on-disk format (verify_fio.c), as
	 * `iogauge fio` writes and reads them; else iogauge's own (struct vhdr).
	 */
	bool fio;
	bool fio_numberio;   /* fio checks a header's write number (a writer of one block size, size-bound) */
	uint16_t fio_type;   /* the header's verify_type */
	struct data_spec pattern;
	const EVP_MD *md;
	const char **paths; /* each thread's files: paths[thread * nfiles + file] */
	struct vthread *t;
	struct verify_stats total;
};

/* verify_block.c: a block's headers, data and checks. */
unsigned verify_csum_len(int algo);
/*
 * The checksum of len bytes at buf, as the job's algorithm makes it (crc32c,
 * xxhash, md5, sha256); fio: as fio's header has it (its xxhash is XXH32).
 */
void verify_checksum(const struct verify_ctx *v, struct vthread *t, bool fio, const void *buf, size_t len,
		     uint8_t out[32]);
/* A header's size for the job's algorithm (fio's: its header and the checksum after it). */
unsigned verify_hdr_size(const struct verify_ctx *v, bool fio);
/* Fill a write's data (when v->fill) and stamp its headers. */
void verify_stamp(struct verify_ctx *v, unsigned thread, struct io_u *u, uint64_t seq);
/*
 * Check a block read; want_seq 0: a read-only job's (the header's own
 * offset, length and checksum only).  Counts it, records what is bad;
 * true when bad.
 */
bool verify_block(struct verify_ctx *v, unsigned thread, const struct io_u *u, uint64_t want_seq);
/*
 * Record a bad piece [offset, +len) of the request u: what holds its kind
 * and what was expected and found (expected, found, at; fio's: want, got,
 * clen, media), the rest is filled in here.
 */
void verify_bad_add(struct verify_ctx *v, struct vthread *t, unsigned thread, const struct io_u *u,
		    uint64_t offset, uint32_t len, const struct verify_bad *what);
/* verify_state_load: read a thread's file (0, or -1 with e set). */
int verify_load_state(struct verify_ctx *v, unsigned thread, struct ig_err *e);

/* verify_fio.c: fio 3.33's header. */
/* fio's verify_type for the job's verify (meta: fio's header-only type, or its pattern type). */
uint16_t verify_fio_type(const struct job *j);
unsigned verify_fio_hdr_size(int algo);
/* Stamp the piece at p of plen bytes for offset, as fio's write would (its checksum after the header). */
void verify_fio_stamp(const struct verify_ctx *v, struct vthread *t, unsigned thread, uint8_t *p,
		      uint64_t offset, uint32_t plen, uint64_t seq, uint64_t rand_seed, uint64_t time_ns);
/*
 * Check the piece at offset off of u, plen bytes, as fio's verify_header
 * and its checksum do: false when sound, else true with what was found in
 * *what (its kind, expected, found; a checksum's bytes).
 */
bool verify_fio_check(const struct verify_ctx *v, struct vthread *t, const struct io_u *u, uint32_t off,
		      uint32_t plen, uint64_t want_seq, struct verify_bad *what);
/* The header's time at p (a block's expected copy takes it from what was read). */
void verify_fio_keep(uint8_t *expect, const uint8_t *read);
/* The rand_seed of fio's header at p (the seed its random data was made from). */
uint64_t verify_fio_seed(const void *p);
/* Does p start with fio's header (its magic)? */
bool verify_fio_looks(const uint8_t *p);

#endif
