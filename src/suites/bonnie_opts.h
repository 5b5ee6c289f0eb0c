/* bonnie's own settings: its rows (src/suites/bonnie_opts.c) write them in struct settings' own area. */
#ifndef IOGAUGE_SUITES_BONNIE_OPTS_H
#define IOGAUGE_SUITES_BONNIE_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include "model/job.h"

/* bonnie (src/suites/bonnie.c): bonnie++'s options, in its units */
struct bonnie_opts {
	uint64_t size;       /* -s: bytes of the test file; UINT64_MAX: twice the RAM */
	uint64_t chunk;      /* -s SIZE:CHUNK: bytes of a block request */
	unsigned seeks, seekers;
	int64_t ram;         /* -r: bytes of RAM to defeat; -1: the machine's; 0: no check */
	unsigned nfiles;     /* -n: files, in units of 1024 */
	uint64_t max_size, min_size;
	unsigned dirs;
	char name[64];       /* -m: the machine's name in the tables ("": the host name) */
	bool csv;            /* -q: the CSV line on stdout, the text on stderr */
	bool no_chars;       /* -f: no per-character tests */
	bool direct;         /* -D: O_DIRECT for the block tests */
	bool keep_cache;     /* --keep-cache: no cache drop before the read tests, as bonnie++ */
};

SETTINGS_OWN_FITS(struct bonnie_opts);

static inline struct bonnie_opts *bonnie_opts(struct settings *s)
{
	return SETTINGS_OWN(s, struct bonnie_opts);
}
static inline const struct bonnie_opts *bonnie_opts_c(const struct settings *s)
{
	return SETTINGS_OWN(s, const struct bonnie_opts);
}

#endif
