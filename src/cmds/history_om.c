/*
 * history --output-format=openmetrics: the newest result of every label (or
 * of --label) as OpenMetrics text, for node_exporter's textfile collector
 * and Prometheus.  A metric family per figure (iogauge_read_iops,
 * iogauge_write_bandwidth_bytes_per_second, iogauge_read_latency_p99_seconds
 * ...: base units), a sample per job or case on each target, labelled host,
 * target, label and job; no timestamps (the textfile collector refuses
 * them): iogauge_result_measured_timestamp_seconds says when each was measured.
 */
#include "base/common.h"
#include "cmds/history.h"
#include "store/store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sample {
	char family[96];
	const char *unit, *help;
	char labels[2048];
	double v;
};

struct samples {
	struct sample *v;
	unsigned n, cap;
};

static void esc(char *out, size_t len, const char *s)
{
	size_t k = 0;
	for (; *s && k + 3 < len; s++) {
		if (*s == '\\' || *s == '"') {
			out[k++] = '\\';
			out[k++] = *s;
		} else if (*s == '\n') {
			out[k++] = '\\';
			out[k++] = 'n';
		} else {
			out[k++] = *s;
		}
	}
	out[k] = 0;
}

/* A figure's family, unit and value in base units; false when it has none. */
static bool family_of(const struct store_fig *f, char *name, size_t len, const char **unit, double *v)
{
	static const struct {
		const char *metric, *base, *unit;
		double mul;
	} map[] = {
		{ "mb_s", "bandwidth_bytes_per_second", NULL, 1e6 },
		{ "iops", "iops", NULL, 1 },
		{ "lat_mean_us", "latency_mean_seconds", "seconds", 1e-6 },
		{ "lat_p50_us", "latency_p50_seconds", "seconds", 1e-6 },
		{ "lat_p99_us", "latency_p99_seconds", "seconds", 1e-6 },
		{ "lat_p999_us", "latency_p999_seconds", "seconds", 1e-6 },
		{ "lat_min_us", "latency_min_seconds", "seconds", 1e-6 },
		{ "lat_max_us", "latency_max_seconds", "seconds", 1e-6 },
		{ "lat_stddev_us", "latency_stddev_seconds", "seconds", 1e-6 },
		{ "cpu_pct", "cpu_ratio", "ratio", 0.01 },
		{ "elapsed_s", "elapsed_seconds", "seconds", 1 },
		{ "per_sec", "per_second", NULL, 1 },
	};
	for (unsigned i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (strcmp(f->metric, map[i].metric))
			continue;
		char dir[16];
		size_t k = 0;
		for (const char *p = f->dir; *p && k + 1 < sizeof(dir); p++)
			dir[k++] = (*p >= 'a' && *p <= 'z') ? *p : '_';
		dir[k] = 0;
		snprintf(name, len, "iogauge_%s%s%s", dir, *dir ? "_" : "", map[i].base);
		*unit = map[i].unit;
		*v = f->value * map[i].mul;
		return isfinite(*v);
	}
	return false;
}

static void add(struct samples *s, const char *family, const char *unit, const char *help, const char *labels, double v)
{
	for (unsigned i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].family, family) && !strcmp(s->v[i].labels, labels))
			return; /* a family's label sets are unique: the first stands */
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v) {
			msg_err("out of memory");
			exit(EXIT_IOERR);
		}
	}
	struct sample *x = &s->v[s->n++];
	snprintf(x->family, sizeof(x->family), "%s", family);
	x->unit = unit;
	x->help = help;
	snprintf(x->labels, sizeof(x->labels), "%s", labels);
	x->v = v;
}

static int by_family(const void *a, const void *b)
{
	return strcmp(((const struct sample *)a)->family, ((const struct sample *)b)->family);
}

static int one_label(struct samples *s, struct store *st, const char *label, struct ig_err *e)
{
	struct store_run *runs;
	unsigned n;
	if (store_series(st, label, 1, &runs, &n, e))
		return -1;
	for (unsigned r = 0; r < n; r++) {
		char host[256], lab[256], labels[2048];
		esc(host, sizeof(host), runs[r].host ? runs[r].host : "");
		esc(lab, sizeof(lab), label);
		struct tm tm;
		memset(&tm, 0, sizeof(tm));
		char *end = runs[r].measured ? strptime(runs[r].measured, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
		if (end) {
			snprintf(labels, sizeof(labels), "host=\"%s\",label=\"%s\"", host, lab);
			add(s, "iogauge_result_measured_timestamp_seconds", "seconds", "When the label's newest result was measured",
			    labels, (double)timegm(&tm));
			add(s, "iogauge_result_id", NULL, "The store's id of the label's newest result", labels,
			    (double)runs[r].id);
		}
		for (unsigned i = 0; i < runs[r].nfigs; i++) {
			const struct store_fig *f = &runs[r].figs[i];
			char fam[96], target[512], job[512];
			const char *unit;
			double v;
			if (!family_of(f, fam, sizeof(fam), &unit, &v))
				continue;
			esc(target, sizeof(target), f->target);
			esc(job, sizeof(job), f->job);
			snprintf(labels, sizeof(labels), "host=\"%s\",target=\"%s\",label=\"%s\",job=\"%s\"", host, target, lab,
				 job);
			add(s, fam, unit, NULL, labels, v);
		}
	}
	store_series_free(runs, n);
	return 0;
}

int history_openmetrics(FILE *f, struct store *st, const struct store_opts *o, struct ig_err *e)
{
	struct samples s = { 0 };
	char **labels = NULL;
	unsigned nl = 0;
	int rc = 0;
	if (*o->label)
		rc = one_label(&s, st, o->label, e);
	else if (!(rc = store_labels(st, &labels, &nl, e)))
		for (unsigned i = 0; !rc && i < nl; i++)
			rc = one_label(&s, st, labels[i], e);
	for (unsigned i = 0; i < nl; i++)
		free(labels[i]);
	free(labels);
	if (!rc) {
		qsort(s.v, s.n, sizeof(*s.v), by_family); /* a family's samples together */
		for (unsigned i = 0; i < s.n; i++) {
			const struct sample *x = &s.v[i];
			if (!i || strcmp(s.v[i - 1].family, x->family)) {
				fprintf(f, "# TYPE %s gauge\n", x->family);
				if (x->unit)
					fprintf(f, "# UNIT %s %s\n", x->family, x->unit);
				fprintf(f, "# HELP %s %s\n", x->family, x->help ? x->help : "iogauge's figure of the label's newest saved result");
			}
			fprintf(f, "%s{%s} %.17g\n", x->family, x->labels, x->v);
		}
		fprintf(f, "# EOF\n");
	}
	free(s.v);
	return rc;
}
