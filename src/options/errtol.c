/*
 * fio's continue_on_error and ignore_error.  As fio: an error's type is
 * verify for EILSEQ, read for a read, write for anything else; a job goes on
 * past an error of a type continue_on_error names when the error is in that
 * type's ignore_error list (EIO and EILSEQ when none is given); naming a list
 * also turns its type on.
 */
#include "options/errtol.h"
#include "model/job.h"
#include "model/ops.h"
#include "options/opt_def.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *word;
	unsigned mask;
} coe_words[] = {
	{ "none", 0 },
	{ "read", 1u << ERRT_READ },
	{ "write", 1u << ERRT_WRITE },
	{ "io", 1u << ERRT_READ | 1u << ERRT_WRITE },
	{ "verify", 1u << ERRT_VERIFY },
	{ "all", 7 },
	{ "0", 0 },
	{ "1", 7 },
};

static struct job_errtol *tol_of(void *obj)
{
	return &((struct job *)obj)->errtol;
}

int set_continue_on_error(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	for (size_t i = 0; i < sizeof(coe_words) / sizeof(coe_words[0]); i++)
		if (!strcmp(val, coe_words[i].word)) {
			tol_of(obj)->coe = coe_words[i].mask;
			return 0;
		}
	snprintf(err, n, "--%s: '%s' is not allowed (allowed: none|read|write|io|verify|all|0|1)", o->name,
		 val);
	return -1;
}

void print_continue_on_error(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job_errtol *t = &((const struct job *)obj)->errtol;
	unsigned lists = 0;
	(void)o;
	for (unsigned type = 0; type < ERRT_NR; type++)
		lists |= t->ig.nlist[type] ? 1u << type : 0;
	/* The first word that, with ignore_error's lists (which turn their types on), gives the mask. */
	for (size_t i = 0; i < 6; i++)
		if ((coe_words[i].mask | lists) == t->coe) {
			snprintf(buf, len, "%s", coe_words[i].word);
			return;
		}
	snprintf(buf, len, "all");
}

/* "EIO" or "5"; 0 when neither. */
static int errno_of(const char *s)
{
	if (s[0] == 'E') {
		for (int e = 1; e < 4096; e++) {
			const char *nm = strerrorname_np(e);
			if (nm && !strcmp(nm, s))
				return e;
		}
		return 0;
	}
	char *end;
	if (*s < '0' || *s > '9')
		return 0;
	long v = strtol(s, &end, 10);
	return !*end && v < 4096 ? (int)v : 0;
}

/* fio's "READ_LIST,WRITE_LIST,VERIFY_LIST", each list errors joined by ':'. */
int set_ignore_error(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job_errtol t = *tol_of(obj);
	char buf[512];
	/* Each ignore_error replaces the lists; "": none, as an unset one prints. */
	memset(&t.ig, 0, sizeof(t.ig));
	if (!*val) {
		*tol_of(obj) = t;
		return 0;
	}
	if (strspn(val, ",:") == strlen(val)) {
		snprintf(err, n, "--%s: no error named (READ,WRITE,VERIFY lists of errno names or numbers)",
			 o->name);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", val);
	char *p = buf;
	for (unsigned type = 0; p; type++) {
		char *next = strchr(p, ',');
		if (next)
			*next++ = 0;
		if (type >= ERRT_NR) {
			snprintf(err, n, "--%s: '%s' has more than 3 lists (read,write,verify)", o->name, val);
			return -1;
		}
		unsigned k = 0;
		for (char *save = NULL, *w = strtok_r(p, ":", &save); w; w = strtok_r(NULL, ":", &save)) {
			int e = errno_of(w);
			if (!e) {
				snprintf(err, n, "--%s: unknown error '%s' (an errno name like EIO, or its number)",
					 o->name, w);
				return -1;
			}
			if (k == ERRT_MAX_LIST) {
				snprintf(err, n, "--%s: at most %d errors per list", o->name, ERRT_MAX_LIST);
				return -1;
			}
			t.ig.list[type][k++] = e;
		}
		if (k) {
			t.ig.nlist[type] = k;
			t.coe |= 1u << type;
		}
		p = next;
	}
	*tol_of(obj) = t;
	return 0;
}

void print_ignore_error(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job_errtol *t = &((const struct job *)obj)->errtol;
	size_t k = 0;
	(void)o;
	buf[0] = 0;
	unsigned last = ERRT_NR;
	while (last > 0 && !t->ig.nlist[last - 1])
		last--;
	for (unsigned type = 0; type < last && k < len; type++) {
		if (type)
			k += (size_t)snprintf(buf + k, len - k, ",");
		for (unsigned i = 0; i < t->ig.nlist[type] && k < len; i++) {
			const char *nm = strerrorname_np(t->ig.list[type][i]);
			k += (size_t)(nm ? snprintf(buf + k, len - k, "%s%s", i ? ":" : "", nm) :
					   snprintf(buf + k, len - k, "%s%d", i ? ":" : "", t->ig.list[type][i]));
		}
	}
}
