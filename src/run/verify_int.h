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

struct vthread {
	uint64_t *table;   /* per unit, as above */
	uint16_t *busy;    /* writes in flight on each unit */
	uint64_t *snap;    /* per request slot: a read's first unit when issued; UINT64_MAX: a write was in flight */
	uint64_t seq;      /* last write number stamped */
	uint64_t *ring;    /* verify_backlog: first units of writes not yet read back, oldest first */
	unsigned nring, ring_pos;
	uint64_t credit;   /* verify_backlog_batch: blocks still to read back of the batch begun */
	uint64_t scan;     /* final read-back: next unit */
	bool in_round, round_final;
	unsigned final_rounds;
	uint64_t round_start, last_read;
	EVP_MD_CTX *md;
	struct data_gen dg;  /* the data of verified writes, from each write's own seed */
	uint8_t *expect;     /* verify_dump: the block expected (the largest request) */
	uint64_t *done;      /* verify_state_save: offsets of the last completed writes (a ring) */
	unsigned ndone;
	bool state_loaded;      /* verify_state_load: the earlier run's state file was read */
	uint64_t state_writes;  /* ... the writes it made */
	const uint64_t *state_done; /* ... and the offsets of its last ones that completed */
	unsigned nstate_done, state_depth;
	unsigned dumps;
	struct verify_stats st;
	char pad[64]; /* threads' counters on their own cache lines */
};

struct verify_ctx {
	struct worker_hooks hooks;
	int algo;
	char name[64];
	uint64_t region, unit, nunits, seed, interval, maxbs; /* nunits: of each thread */
	unsigned nthreads, backlog, depth, first_thread;
	uint64_t batch;    /* verify_backlog_batch: blocks a read-back checks (default: the backlog) */
	uint64_t step; /* from one thread's region to the next: a slice (split), --offset_increment or 0 */
	const uint64_t *base; /* each thread's region start (fio's percentages, verify_thread_starts); NULL: by step */
	bool final, split, read_only, fatal, dump, fake, experimental, check_pattern, fill, save;
	struct data_spec pattern;
	const EVP_MD *md;
	const char **paths; /* each thread's file */
	struct vthread *t;
	struct verify_stats total;
};

/* verify_block.c: a block's headers, data and checks. */
unsigned verify_csum_len(int algo);
/* Fill a write's data (when v->fill) and stamp its headers. */
void verify_stamp(struct verify_ctx *v, unsigned thread, struct io_u *u, uint64_t seq);
/*
 * Check a block read; want_seq 0: a read-only job's (the header's own
 * offset, length and checksum only).  Counts it, records what is bad;
 * true when bad.
 */
bool verify_block(struct verify_ctx *v, unsigned thread, const struct io_u *u, uint64_t want_seq);
/* verify_state_load: read a thread's file (0, or -1 with e set). */
int verify_load_state(struct verify_ctx *v, unsigned thread, struct ig_err *e);

#endif
