/* Options looked up, applied to jobs and settings, printed and echoed as JSON. */
#include "base/common.h"
#include "options/options.h"
#include "base/units.h"
#include "options/option_values.h"
#include "stats/steady.h"
#include "model/engine.h"
#include "options/fio_opts.h"
#include "model/data.h"
#include "model/verify.h"
#include "options/command.h"

#include <pthread.h>

#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- lookup */

/* fio spells options with '_', iogauge's own use '-': accept either. */
static bool name_eq(const char *a, const char *b, size_t blen)
{
	size_t i = 0;
	for (; i < blen && a[i]; i++) {
		char x = a[i] == '_' ? '-' : a[i], y = b[i] == '_' ? '-' : b[i];
		if (x != y)
			return false;
	}
	return i == blen && !a[i];
}

/* ---- every row: the core table and the commands' own (linker section ig_opt_rows) */

extern const struct opt_rows *const __start_ig_opt_rows[] __attribute__((weak));
extern const struct opt_rows *const __stop_ig_opt_rows[] __attribute__((weak));

static const struct opt_def **all_rows;
static pthread_once_t all_once = PTHREAD_ONCE_INIT;

static int by_order(const void *a, const void *b)
{
	const struct opt_rows *x = *(const struct opt_rows *const *)a, *y = *(const struct opt_rows *const *)b;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return strcmp(x->rows->owner, y->rows->owner); /* the same order: still one, whatever the link order */
}

/* A broken registration is a programming error, found by the first walk of any run. */
static void __attribute__((noreturn)) bad_rows(const char *what, const char *name)
{
	msg_err("internal: option rows: %s %s", what, name);
	abort();
}

static void build_rows(void)
{
	size_t nb = (size_t)(__stop_ig_opt_rows - __start_ig_opt_rows), n = 1, k = 0;
	const struct opt_rows **b = xcalloc(nb + 1, sizeof(*b));
	for (size_t i = 0; i < nb; i++) {
		b[i] = __start_ig_opt_rows[i];
		for (const struct opt_def *o = b[i]->rows; o->name; o++, n++)
			if (!o->owner || o->group || strcmp(o->owner, b[i]->rows->owner))
				bad_rows("a command's own row needs its block's .owner and no .group:", o->name);
		if (!b[i]->rows->name)
			bad_rows("an empty block after", b[i]->after);
	}
	qsort(b, nb, sizeof(*b), by_order);
	for (const struct opt_def *o = options; o->name; o++)
		n++;
	all_rows = xcalloc(n, sizeof(*all_rows));
	size_t placed = 0;
	for (const struct opt_def *o = options; o->name; o++) {
		if (o->owner)
			bad_rows("a core row with an owner:", o->name);
		all_rows[k++] = o;
		for (size_t i = 0; i < nb; i++) {
			if (strcmp(b[i]->after, o->name))
				continue;
			for (const struct opt_def *r = b[i]->rows; r->name; r++)
				all_rows[k++] = r;
			placed++;
		}
	}
	for (size_t i = 0; placed < nb && i < nb; i++) {
		bool found = false;
		for (const struct opt_def *o = options; o->name && !found; o++)
			found = !strcmp(b[i]->after, o->name);
		if (!found)
			bad_rows("no core row named", b[i]->after);
	}
	free(b);
}

const struct opt_def *const *option_rows(void)
{
	pthread_once(&all_once, build_rows);
	return all_rows;
}

bool option_owned(const struct opt_def *o, const struct command *c)
{
	return o->owner && (!c || !strcmp(o->owner, c->name));
}

bool option_takes(const struct opt_def *o, const struct command *c)
{
	return (o->group & c->groups) || option_owned(o, c);
}

const struct opt_def *option_find_n(const char *name, size_t len)
{
	OPTIONS_EACH(o)
		if (name_eq(o->name, name, len))
			return o;
	return NULL;
}

const struct opt_def *option_find_pref(const char *name, size_t len, unsigned prefer)
{
	OPTIONS_EACH(o)
		if ((o->group & prefer) && name_eq(o->name, name, len))
			return o;
	return option_find_n(name, len);
}

const struct opt_def *option_find_cmd(const char *name, size_t len, const struct command *c)
{
	OPTIONS_EACH(o)
		if (option_takes(o, c) && name_eq(o->name, name, len))
			return o;
	return option_find_n(name, len);
}

const struct opt_def *option_find(const char *name)
{
	return option_find_n(name, strlen(name));
}

/* ---- applying */

static int apply_number(const struct opt_def *o, void *field, const char *val, char *err,
			size_t n)
{
	uint64_t v;
	int rc;
	const char *what;
	switch (o->type) {
	case OT_SIZE:
		rc = parse_size(val, &v);
		what = "a size (a number with an optional k, m, g, t or KiB/KB.. suffix)";
		if (rc && *val && val[strlen(val) - 1] == '%') {
			snprintf(err, n, "--%s: '%s' is not a size (--%s takes no percentage)", o->name, val, o->name);
			return -1;
		}
		break;
	case OT_TIME:
		rc = parse_time(val, o->unit, &v);
		what = "a time (a number with an optional ns, us, ms, s, m or h suffix)";
		break;
	default:
		rc = parse_uint(val, &v);
		what = "a whole number";
		break;
	}
	if (rc) {
		snprintf(err, n, "--%s: '%s' is not %s", o->name, val, what);
		return -1;
	}
	/* A 32-bit field without a stated maximum still takes no more than it holds. */
	uint64_t max = o->max ? o->max : o->type == OT_UINT ? UINT32_MAX : 0;
	if (v < o->min || (max && v > max)) {
		if (max)
			snprintf(err, n, "--%s: %s is out of range (allowed: %" PRIu64 " to %" PRIu64 ")",
				 o->name, val, o->min, max);
		else
			snprintf(err, n, "--%s: %s is out of range (at least %" PRIu64 ")", o->name,
				 val, o->min);
		return -1;
	}
	if (o->type == OT_UINT)
		*(unsigned *)field = (unsigned)v;
	else
		*(uint64_t *)field = v;
	return 0;
}

/*
 * fio's N% of the target's size (size=50%): a whole number from 1 to 100,
 * kept in the row's percentage byte until the runner knows the size (the
 * value is 0 meanwhile); a plain size clears it.  fio 3.33 reads 12.5% as 12
 * bytes, -5% as 5%, 0% as no value and 101% as a layout that fails: each is
 * refused here, in one line.
 */
static int apply_size_pct(const struct opt_def *o, void *obj, void *field, const char *val, char *err, size_t n)
{
	uint8_t *pct = (uint8_t *)obj + o->pct_off;
	size_t len = strlen(val);
	if (!len || val[len - 1] != '%') {
		if (apply_number(o, field, val, err, n))
			return -1;
		*pct = 0;
		return 0;
	}
	size_t digits = strspn(val, "0123456789");
	if (digits && digits < len - 1 && val[digits] == '.' &&
	    strspn(val + digits + 1, "0123456789") == len - digits - 2) {
		snprintf(err, n, "--%s: '%s': a percentage is a whole number from 1%% to 100%% (fio 3.33 reads it as %.*s bytes)",
			 o->name, val, (int)digits, val);
		return -1;
	}
	if (!digits || digits != len - 1 || digits > 3) {
		snprintf(err, n, "--%s: '%s' is not a size or a percentage (1%% to 100%% of the file's or device's size)",
			 o->name, val);
		return -1;
	}
	unsigned v = (unsigned)strtoul(val, NULL, 10);
	if (!v || v > 100) {
		snprintf(err, n, "--%s: %s is out of range (a percentage from 1%% to 100%% of the file's or device's size)",
			 o->name, val);
		return -1;
	}
	*pct = (uint8_t)v;
	*(uint64_t *)field = 0;
	return 0;
}

static int apply_enum(const struct opt_def *o, int *field, const char *val, char *err, size_t n)
{
	for (int i = 0; o->values[i]; i++) {
		if (!strcmp(val, o->values[i])) {
			*field = i;
			return 0;
		}
	}
	int k = snprintf(err, n, "--%s: '%s' is not allowed (allowed:", o->name, val);
	for (int i = 0; o->values[i] && k > 0 && (size_t)k < n; i++)
		k += snprintf(err + k, n - k, "%s%s", i ? "|" : " ", o->values[i]);
	if (k > 0 && (size_t)k < n)
		snprintf(err + k, n - k, ")");
	return -1;
}

int option_apply(const struct opt_def *o, struct job *j, struct settings *s, const char *val,
		 char *err, size_t n)
{
	void *obj = o->scope == SCOPE_JOB ? (void *)j : o->scope == SCOPE_OWN ? (void *)s->own : (void *)s;
	void *field = (char *)obj + o->off;
	if (!val)
		val = o->bare;
	if (!val) {
		snprintf(err, n, "--%s needs a value (%s)", o->name, o->arg ? o->arg : "see --help");
		return -1;
	}
	/* A typed row may parse its values itself (bs=R,W); the type still says how it is shown. */
	if (o->set)
		return o->set(obj, o, val, err, n);
	switch (o->type) {
	case OT_STR:
		if (strlen(val) >= o->len) {
			snprintf(err, n, "--%s: value longer than %zu characters", o->name, o->len - 1);
			return -1;
		}
		if (!*val && (o->flags & OPT_NEW_JOB)) {
			snprintf(err, n, "--%s: the name is empty", o->name);
			return -1;
		}
		strcpy(field, val);
		return 0;
	case OT_BOOL: {
		bool b;
		if (parse_bool(val, &b)) {
			snprintf(err, n,
				 "--%s: '%s' is not a boolean (allowed: 1, 0, true, false, yes, no, on, off)",
				 o->name, val);
			return -1;
		}
		*(bool *)field = o->invert ? !b : b;
		return 0;
	}
	case OT_ENUM:
		return apply_enum(o, field, val, err, n);
	case OT_SPECIAL:
		return o->set(obj, o, val, err, n);
	case OT_SIZE:
		if (o->pct_off)
			return apply_size_pct(o, obj, field, val, err, n);
		return apply_number(o, field, val, err, n);
	default:
		return apply_number(o, field, val, err, n);
	}
}

void options_defaults(struct job *j, struct settings *s)
{
	char err[256];
	memset(j, 0, sizeof(*j));
	memset(s, 0, sizeof(*s));
	for (const struct opt_def *o = options; o->name; o++) {
		if (o->def && option_apply(o, j, s, o->def, err, sizeof(err))) {
			/* A broken default is a programming error. */
			msg_err("internal: default of %s", err);
			abort();
		}
	}
	j->cmdprio.said = 0; /* the defaults are no cmdprio option given (refused with other engines) */
}

/* ---- printing */

void option_print(const struct opt_def *o, const struct job *j, const struct settings *s,
		  char *buf, size_t len)
{
	const void *obj = o->scope == SCOPE_JOB ? (const void *)j :
			  o->scope == SCOPE_OWN ? (const void *)s->own : (const void *)s;
	const void *field = (const char *)obj + o->off;
	if (o->pct_off && *((const uint8_t *)obj + o->pct_off)) {
		snprintf(buf, len, "%u%%", *((const uint8_t *)obj + o->pct_off));
		return;
	}
	if (o->print) {
		o->print(obj, o, buf, len);
		return;
	}
	switch (o->type) {
	case OT_STR:
		snprintf(buf, len, "%s", (const char *)field);
		break;
	case OT_BOOL:
		snprintf(buf, len, "%d", *(const bool *)field != o->invert);
		break;
	case OT_UINT:
		snprintf(buf, len, "%u", *(const unsigned *)field);
		break;
	case OT_U64:
		snprintf(buf, len, "%" PRIu64, *(const uint64_t *)field);
		break;
	case OT_SIZE:
		print_size(*(const uint64_t *)field, buf, len);
		break;
	case OT_TIME:
		print_time(*(const uint64_t *)field, buf, len);
		break;
	case OT_ENUM:
		snprintf(buf, len, "%s", o->values[*(const int *)field]);
		break;
	case OT_SPECIAL:
		o->print(obj, o, buf, len);
		break;
	}
}

/* A row's value as the echo writes it: sizes in bytes, times in ns, booleans, the rest as typed. */
static json_t *echo_value(const struct opt_def *o, const struct job *j)
{
	const void *field = (const char *)j + o->off;
	json_t *v;
	char buf[512];
	switch (o->type) {
	case OT_BOOL:
		return json_boolean(*(const bool *)field != o->invert);
	case OT_UINT:
		return json_integer(*(const unsigned *)field);
	case OT_U64:
	case OT_SIZE:
	case OT_TIME: {
		uint64_t x = *(const uint64_t *)field;
		/* fio's N%: shown as written, as fio's job options show it. */
		if (o->pct_off && *((const uint8_t *)j + o->pct_off)) {
			option_print(o, j, NULL, buf, sizeof(buf));
			return json_string(buf);
		}
		v = x > INT64_MAX ? json_real((double)x) : json_integer((json_int_t)x);
		/* A size its own printer shows otherwise (bs=4k,8k) is shown as written. */
		char plain[64];
		print_size(x, plain, sizeof(plain));
		if (o->print) {
			option_print(o, j, NULL, buf, sizeof(buf));
			if (strcmp(buf, plain)) {
				json_decref(v);
				v = json_string(buf);
			}
		}
		return v;
	}
	default:
		option_print(o, j, NULL, buf, sizeof(buf));
		v = json_string(buf);
		return v ? v : json_string("?"); /* not UTF-8 (a path): keep the key */
	}
}

/* The job rows an echo may carry: a core row's field under its own name (aliases and no-effect rows never). */
static bool echoed(const struct opt_def *o)
{
	return o->scope == SCOPE_JOB && !o->owner && !(o->flags & (OPT_NO_ECHO | OPT_NO_EFFECT));
}

/* The rows an option string names ("--rw=read --bs=1m"), at most max; how many. */
static unsigned said_rows(const char *said, const struct opt_def **rows, unsigned max)
{
	unsigned n = 0;
	for (const char *p = said; p && *p && n < max;) {
		size_t len = strcspn(p, " ");
		const char *name = p + (p[0] == '-') + (len > 1 && p[1] == '-');
		const struct opt_def *r = option_find_n(name, strcspn(name, "= "));
		if (r)
			rows[n++] = r;
		p += len;
		p += strspn(p, " ");
	}
	return n;
}

/* Is row o one of them, or another name of one's field (--blocksize for bs)? */
static bool said_in(const struct opt_def *o, const struct opt_def *const *rows, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (rows[i] == o || (rows[i]->scope == o->scope && rows[i]->off == o->off && rows[i]->len == o->len))
			return true;
	return false;
}

json_t *options_json(const struct job *j, unsigned groups, const char *said, const struct job *also)
{
	json_t *out = json_object();
	struct job *d = NULL; /* the table's defaults, made when a row outside groups is met */
	const struct opt_def *named[64];
	unsigned nnamed = said_rows(said, named, ARRAY_SIZE(named));
	OPTIONS_EACH(o) {
		if (!echoed(o))
			continue;
		json_t *v = echo_value(o, j);
		if (!(o->group & groups) && !said_in(o, named, nnamed)) {
			if (!d) {
				struct settings *s = xcalloc(1, sizeof(*s));
				d = xcalloc(1, sizeof(*d));
				options_defaults(d, s);
				free(s);
			}
			json_t *dv = echo_value(o, d), *av = also ? echo_value(o, also) : NULL;
			bool dflt = json_equal(v, dv) && (!av || json_equal(v, av));
			json_decref(dv);
			json_decref(av);
			if (dflt) {
				json_decref(v);
				continue;
			}
		}
		json_object_set_new(out, o->name, v);
	}
	free(d);
	return out;
}

json_t *options_json_defaults(void)
{
	struct job *j = xcalloc(1, sizeof(*j));
	struct settings *s = xcalloc(1, sizeof(*s));
	options_defaults(j, s);
	json_t *out = json_object();
	OPTIONS_EACH(o)
		if (echoed(o))
			json_object_set_new(out, o->name, echo_value(o, j));
	free(j);
	free(s);
	return out;
}
