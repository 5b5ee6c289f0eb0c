/* The tree command's own parts, shared by its files (tree.c: cases, figures, text; tree_json.c: JSON, --hash-out, a saved result). */
#ifndef IOGAUGE_SUITES_TREE_INT_H
#define IOGAUGE_SUITES_TREE_INT_H

#include "suite/suite.h"
#include "run/tree.h"

#include <stdio.h>

struct tree_priv {
	struct tree_make make;
	struct tree_job *trees; /* one per target */
	struct tree_case *runs; /* [target][pass][case] */
	unsigned ntargets, npasses, ncases;
	bool kept;              /* --keep: a built tree stays */
	char **bad;             /* a saved result: each target's first unreadable file, by name */
};

static inline struct tree_priv *priv_of(const struct suite_run *sr)
{
	return sr->priv;
}

static inline struct tree_case *run_at(const struct suite_run *sr, unsigned t, unsigned pass, unsigned c)
{
	struct tree_priv *p = priv_of(sr);
	if (!p || !p->runs || t >= p->ntargets || pass >= p->npasses || c >= p->ncases)
		return NULL;
	return &p->runs[((size_t)t * p->npasses + pass) * p->ncases + c];
}

/* One stream count's figures (medians over the passes); NAN where not known. */
struct step {
	unsigned streams;
	bool measured, on_curve;
	double mbs, iops, mean_ns, p99_ns, cpu, secs, little, little_io, resident;
	double files, bytes, read_mbs, hash_mbs, ratio, comp_mbs; /* NAN: not known */
};

struct curve {
	struct step *steps;
	unsigned n;
	int knee, next;
	double gain, threshold;
};

/* The curve of target t and its knee (k->steps allocated: the caller frees it). */
void tree_analyse(const struct suite_run *sr, unsigned t, struct curve *k);
/* The suite's JSON object, its --hash-out file, and a saved object read back (tree_json.c). */
json_t *tree_json(const struct suite_run *sr);
int tree_write_hashes(const struct suite_run *sr, bool check_only, struct ig_err *e);
int tree_load(struct suite_run *sr, const json_t *own, struct ig_err *e);

#endif
