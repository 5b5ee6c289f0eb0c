/*
 * References to saved results (store.h): ID, @last, @last~N, LABEL, LABEL~N,
 * and what a label may be.
 */
#include "store/store_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool store_label_ok(const char *label)
{
	size_t n = strlen(label);
	bool digits = true;
	/* A word that starts with - is an option to the commands that take labels; one ending .json a file. */
	if (!n || n > 64 || *label == '-' || (n >= 5 && !strcmp(label + n - 5, ".json")))
		return false;
	for (const char *p = label; *p; p++) {
		/* ASCII by hand: isalnum would take a byte of another locale's letters. */
		bool alnum = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9');
		if (!alnum && !strchr("._-+:", *p))
			return false;
		digits &= *p >= '0' && *p <= '9';
	}
	return !digits;
}

/* "~N" at the end of ref: N, and the part before it in base; 0 without. */
static int split_back(const char *ref, char *base, size_t len, long long *back)
{
	const char *t = strrchr(ref, '~');
	*back = 0;
	if (!t) {
		snprintf(base, len, "%s", ref);
		return 0;
	}
	char *end;
	errno = 0;
	long long v = strtoll(t + 1, &end, 10);
	if (!t[1] || *end || errno || v < 0 || !isdigit((unsigned char)t[1]))
		return -1;
	*back = v;
	snprintf(base, len, "%.*s", (int)(t - ref), ref);
	return 0;
}

bool store_ref_like(const char *word)
{
	char base[128];
	long long back;
	if (split_back(word, base, sizeof(base), &back))
		return false;
	if (!strcmp(base, "@last"))
		return true;
	bool digits = *base != 0;
	for (const char *p = base; *p; p++)
		digits &= isdigit((unsigned char)*p) != 0;
	return (digits && !strchr(word, '~')) || store_label_ok(base);
}

int store_resolve(struct store *st, const char *ref, long long *id, struct ig_err *e)
{
	char base[128], off[32];
	long long back;
	*id = 0;
	if (strlen(ref) >= sizeof(base) || split_back(ref, base, sizeof(base), &back) || !store_ref_like(ref))
		return store_none(e, "%s: not a saved result's reference (ID, LABEL, LABEL~N, @last, @last~N)",
			       ref);
	bool digits = true;
	for (const char *p = base; *p; p++)
		digits &= isdigit((unsigned char)*p) != 0;
	int rc;
	if (digits) {
		struct store_val p = store_txt(base);
		rc = store_exec(st, "SELECT id FROM results WHERE id = $1", 1, &p, store_row_ll, id, e);
		if (!rc && !*id)
			return store_none(e, "store %s: no result %s", st->db.where, base);
		return rc ? -1 : 0;
	}
	snprintf(off, sizeof(off), "%lld", back);
	bool all = !strcmp(base, "@last");
	struct store_val p[2] = { store_txt(all ? off : base), store_txt(off) };
	rc = store_exec(st,
			all ? "SELECT id FROM results ORDER BY measured DESC, id DESC LIMIT 1 OFFSET $1" :
			      "SELECT id FROM results WHERE label = $1 ORDER BY measured DESC, id DESC LIMIT 1 OFFSET $2",
			all ? 1 : 2, p, store_row_ll, id, e);
	if (rc)
		return -1;
	if (!*id) {
		long long have = 0;
		rc = store_exec(st, all ? "SELECT count(*) FROM results" : "SELECT count(*) FROM results WHERE label = $1",
				all ? 0 : 1, p, store_row_ll, &have, e);
		if (rc)
			return -1;
		if (all && !have)
			return store_none(e, "store %s is empty", st->db.where);
		if (!have)
			return store_none(e, "store %s: no result labelled %s", st->db.where, base);
		return store_none(e, "store %s: no result %s: %s%s %lld result%s (%s to %s~%lld)", st->db.where, ref,
				  all ? "it" : base, all ? " holds" : " has", have, have == 1 ? "" : "s", base, base,
				  have - 1);
	}
	return 0;
}

