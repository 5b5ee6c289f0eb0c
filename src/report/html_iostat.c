/*
 * The HTML page's device part: iostat -x's columns over the measured phase
 * and per second (a table and two charts), and other processes' I/O, all
 * read from the saved JSON (iostat_out.c writes it) through the reader.
 */
#include "base/common.h"
#include "report/html.h"

#include <string.h>

static void cols_row(FILE *f, const char *what, const struct result_iostat *c)
{
	const double cols[] = { c->r_s, c->w_s, c->rmb_s, c->wmb_s, c->r_await_ms, c->w_await_ms, c->aqu_sz,
				c->util_pct };
	fputs("<tr><th>", f);
	html_esc(f, what);
	fputs("</th>", f);
	for (unsigned k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
		fprintf(f, "<td>%.2f</td>", cols[k]);
	fputs("</tr>\n", f);
}

static void device_table(FILE *f, const struct result_devstat *dv)
{
	char what[64];
	fputs("<table class=\"iostat\">\n<tr><th>", f);
	html_esc(f, dv->name);
	fputs("</th><th>r/s</th><th>w/s</th><th>rMB/s</th><th>wMB/s</th><th>r_await</th><th>w_await</th>"
	      "<th>aqu-sz</th><th>%util</th></tr>\n", f);
	snprintf(what, sizeof(what), "measured part (%.2f s)", dv->span_ns / 1e9);
	cols_row(f, what, &dv->measured);
	for (unsigned i = 0; i < dv->nseries; i++) {
		snprintf(what, sizeof(what), "%.2f s", dv->series[i].t_ns / 1e9);
		cols_row(f, what, &dv->series[i]);
	}
	fputs("</table>\n", f);
}

static void device_charts(struct page *p, unsigned r, const struct result_devstat *devs, unsigned ndevs)
{
	char key[64];
	snprintf(key, sizeof(key), "r%u:dev:mb_s", r);
	json_t *mb = chart_new(p, "time", key, "Device MB/s per second (iostat, MB = 2^20 bytes)", "seconds",
			       "MB/s");
	snprintf(key, sizeof(key), "r%u:dev:util", r);
	json_t *ut = chart_new(p, "time", key, "Device %util per second", "seconds", "%util");
	for (unsigned i = 0; i < ndevs; i++) {
		const char *name = devs[i].name;
		char label[96];
		snprintf(label, sizeof(label), "%s read", name ? name : "?");
		json_t *rd = chart_dataset(mb, label);
		snprintf(label, sizeof(label), "%s write", name ? name : "?");
		json_t *wr = chart_dataset(mb, label);
		json_t *u = chart_dataset(ut, name ? name : "?");
		for (unsigned k = 0; k < devs[i].nseries; k++) {
			const struct result_iostat *s = &devs[i].series[k];
			double t = s->t_ns / 1e9;
			chart_point(rd, t, s->rmb_s);
			chart_point(wr, t, s->wmb_s);
			chart_point(u, t, s->util_pct);
		}
	}
}

static void other_io(FILE *f, const json_t *root)
{
	struct result_other *o;
	int n = result_others(root, &o);
	if (n >= 0) {
		fputs("<p class=\"other-io\">Other I/O while measuring: ", f);
		if (!n)
			fputs("none", f);
		double rest[2] = { 0, 0 };
		for (int i = 0; i < n; i++) {
			char line[128];
			if (i >= 5) { /* most bytes first: the rest in one sum */
				rest[0] += o[i].read_bytes;
				rest[1] += o[i].write_bytes;
				continue;
			}
			snprintf(line, sizeof(line), "%sPID %lld %s %.1f MB read, %.1f MB written", i ? "; " : "",
				 o[i].pid, o[i].name ? o[i].name : "?", o[i].read_bytes / 1e6, o[i].write_bytes / 1e6);
			html_esc(f, line);
		}
		if (n > 5)
			fprintf(f, "; and %zu more processes, %.1f MB read, %.1f MB written", (size_t)n - 5,
				rest[0] / 1e6, rest[1] / 1e6);
		fputs("</p>\n", f);
	}
	free(o);
}

void html_iostat(struct page *p, unsigned r)
{
	const json_t *root = p->res[r].root;
	FILE *f = p->f;
	struct result_devstat *devs;
	struct result_nodev *nodev;
	unsigned ndevs = result_devstats(root, &devs), nnodev = result_nodevs(root, &nodev);
	bool any = false, series = false;
	for (unsigned i = 0; i < ndevs; i++) {
		any |= devs[i].has_iostat;
		series |= devs[i].nseries > 1;
	}
	if (any || nnodev) {
		fputs("<h3>The device while measuring (iostat -x)</h3>\n", f);
		for (unsigned i = 0; i < nnodev; i++) {
			fputs("<p>", f);
			html_esc(f, nodev[i].path);
			fputs(" is on ", f);
			html_esc(f, nodev[i].fstype);
			fputs(", which has no block device.</p>\n", f);
		}
		for (unsigned i = 0; i < ndevs; i++)
			if (devs[i].has_iostat)
				device_table(f, &devs[i]);
		other_io(f, root);
		if (series) {
			fputs("<div class=\"charts\">\n", f);
			device_charts(p, r, devs, ndevs);
			fputs("</div>\n", f);
		}
	}
	result_devstats_free(devs, ndevs);
	free(nodev);
}
