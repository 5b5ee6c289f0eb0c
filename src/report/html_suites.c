/*
 * Charts of the suites that find something in their curve: scale's IOPS
 * against latency and outstanding I/O with the knee, drawn from the
 * suite's own object in the saved result ("scale").
 */
#include "common.h"
#include "report/html.h"

#include <stdio.h>
#include <string.h>

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* One dataset per thread count: y(step) against x(step), in the sweep's order. */
static void per_threads(json_t *c, const json_t *steps, const char *what, const char *xkey,
			const char *ykey, double yscale, const char *style)
{
	size_t i;
	const json_t *s;
	json_int_t done[64];
	unsigned nd = 0;
	json_array_foreach(steps, i, s) {
		json_int_t t = json_integer_value(json_object_get(s, "numjobs"));
		bool seen = false;
		for (unsigned k = 0; k < nd; k++)
			seen |= done[k] == t;
		if (seen || nd == ARRAY_SIZE(done))
			continue;
		done[nd++] = t;
		char label[96];
		snprintf(label, sizeof(label), "%s%s%lld thread%s", what, *what ? ", " : "", (long long)t,
			 t == 1 ? "" : "s");
		json_t *ds = chart_dataset(c, label);
		if (style)
			json_object_set_new(ds, "style", json_string(style));
		size_t k;
		const json_t *x;
		json_array_foreach(steps, k, x)
			if (json_integer_value(json_object_get(x, "numjobs")) == t &&
			    json_is_true(json_object_get(x, "measured")))
				chart_point(ds, num(x, xkey), num(x, ykey) / yscale);
	}
}

static void knee_points(json_t *c, const json_t *knee, const char *xkey, const char *const *ykeys,
			unsigned ny, double yscale)
{
	if (!json_is_object(knee) || !json_is_true(json_object_get(knee, "measured")))
		return;
	char label[96];
	snprintf(label, sizeof(label), "knee: %s", json_string_value(json_object_get(knee, "case")));
	json_t *ds = chart_dataset(c, label);
	json_object_set_new(ds, "style", json_string("knee"));
	for (unsigned i = 0; i < ny; i++)
		chart_point(ds, num(knee, xkey), num(knee, ykeys[i]) / yscale);
}

static void scale_charts(struct page *p, unsigned r, const json_t *scale)
{
	size_t t;
	const json_t *x;
	char key[64], title[PATH_MAX + 64];
	static const char *const lat[] = { "lat_mean_ns", "lat_p99_ns" };
	static const char *const iops[] = { "iops" };
	size_t nt = json_array_size(json_object_get(scale, "targets"));
	fputs("<h3>Scaling: the knee</h3>\n<div class=\"charts\">\n", p->f);
	json_array_foreach(json_object_get(scale, "targets"), t, x) {
		const json_t *steps = json_object_get(x, "steps"), *knee = json_object_get(x, "knee");
		const char *path = json_string_value(json_object_get(x, "path"));
		snprintf(key, sizeof(key), "r%u:scale:lat:t%zu", r, t);
		snprintf(title, sizeof(title), "IOPS against mean and p99 latency%s%s", nt > 1 ? ": " : "",
			 nt > 1 && path ? path : "");
		json_t *c = chart_new(p, "xy", key, title, "IOPS", "latency (us)");
		json_object_set_new(c, "ylog", json_true());
		per_threads(c, steps, "mean", "iops", "lat_mean_ns", 1e3, NULL);
		per_threads(c, steps, "p99", "iops", "lat_p99_ns", 1e3, "dash");
		knee_points(c, knee, "iops", lat, 2, 1e3);
		snprintf(key, sizeof(key), "r%u:scale:little:t%zu", r, t);
		snprintf(title, sizeof(title), "IOPS against outstanding I/O (Little's law: IOPS x mean latency)%s%s",
			 nt > 1 ? ": " : "", nt > 1 && path ? path : "");
		c = chart_new(p, "xy", key, title, "outstanding I/O", "IOPS");
		json_object_set_new(c, "xlog", json_true());
		per_threads(c, steps, "", "outstanding", "iops", 1, NULL);
		knee_points(c, knee, "outstanding", iops, 1, 1);
	}
	fputs("</div>\n", p->f);
}

void charts_suite(struct page *p, unsigned r)
{
	const json_t *root = p->res[r].root;
	const json_t *scale = json_object_get(root, "scale");
	if (json_is_object(scale))
		scale_charts(p, r, scale);
}
