/*
 * The HTML page's device part: iostat -x's columns over the measured phase
 * and per second (a table and two charts), and other processes' I/O, all
 * read from the saved JSON (iostat_out.c writes it).
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "report/html.h"

#include <string.h>

static double col(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static void cols_row(FILE *f, const char *what, const json_t *c)
{
	static const char *const keys[] = { "r_s", "w_s", "rMB_s", "wMB_s", "r_await_ms", "w_await_ms",
					    "aqu_sz", "util_pct" };
	fputs("<tr><th>", f);
	html_esc(f, what);
	fputs("</th>", f);
	for (unsigned k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		fprintf(f, "<td>%.2f</td>", col(c, keys[k]));
	fputs("</tr>\n", f);
}

static void device_table(FILE *f, const json_t *dv)
{
	const json_t *s, *series = json_object_get(dv, RK_SERIES);
	size_t i;
	char what[64];
	fputs("<table class=\"iostat\">\n<tr><th>", f);
	html_esc(f, json_string_value(json_object_get(dv, RK_NAME)));
	fputs("</th><th>r/s</th><th>w/s</th><th>rMB/s</th><th>wMB/s</th><th>r_await</th><th>w_await</th>"
	      "<th>aqu-sz</th><th>%util</th></tr>\n", f);
	snprintf(what, sizeof(what), "measured part (%.2f s)", col(dv, "span_ns") / 1e9);
	cols_row(f, what, json_object_get(dv, RK_IOSTAT));
	json_array_foreach(series, i, s) {
		snprintf(what, sizeof(what), "%.2f s", col(s, "t_ns") / 1e9);
		cols_row(f, what, s);
	}
	fputs("</table>\n", f);
}

static void device_charts(struct page *p, unsigned r, const json_t *devs)
{
	char key[64];
	const json_t *dv, *s;
	size_t i, k;
	snprintf(key, sizeof(key), "r%u:dev:mb_s", r);
	json_t *mb = chart_new(p, "time", key, "Device MB/s per second (iostat, MB = 2^20 bytes)", "seconds",
			       "MB/s");
	snprintf(key, sizeof(key), "r%u:dev:util", r);
	json_t *ut = chart_new(p, "time", key, "Device %util per second", "seconds", "%util");
	json_array_foreach(devs, i, dv) {
		const char *name = json_string_value(json_object_get(dv, RK_NAME));
		char label[96];
		snprintf(label, sizeof(label), "%s read", name ? name : "?");
		json_t *rd = chart_dataset(mb, label);
		snprintf(label, sizeof(label), "%s write", name ? name : "?");
		json_t *wr = chart_dataset(mb, label);
		json_t *u = chart_dataset(ut, name ? name : "?");
		json_array_foreach(json_object_get(dv, RK_SERIES), k, s) {
			double t = col(s, "t_ns") / 1e9;
			chart_point(rd, t, col(s, "rMB_s"));
			chart_point(wr, t, col(s, "wMB_s"));
			chart_point(u, t, col(s, "util_pct"));
		}
	}
}

void html_iostat(struct page *p, unsigned r)
{
	const json_t *root = p->res[r].root, *devs = json_object_get(root, RK_DEVICES), *dv, *o;
	FILE *f = p->f;
	size_t i;
	bool any = false;
	json_array_foreach(devs, i, dv)
		any |= json_object_get(dv, RK_IOSTAT) != NULL;
	if (!any && !json_array_size(json_object_get(root, RK_NO_DEVICE)))
		return;
	fputs("<h3>The device while measuring (iostat -x)</h3>\n", f);
	json_array_foreach(json_object_get(root, RK_NO_DEVICE), i, o) {
		fputs("<p>", f);
		html_esc(f, json_string_value(json_object_get(o, RK_PATH)));
		fputs(" is on ", f);
		html_esc(f, json_string_value(json_object_get(o, "fstype")));
		fputs(", which has no block device.</p>\n", f);
	}
	json_array_foreach(devs, i, dv)
		if (json_object_get(dv, RK_IOSTAT))
			device_table(f, dv);
	const json_t *others = json_object_get(root, RK_OTHER_IO);
	if (json_is_array(others)) {
		fputs("<p class=\"other-io\">Other I/O while measuring: ", f);
		if (!json_array_size(others))
			fputs("none", f);
		double rest[2] = { 0, 0 };
		json_array_foreach(others, i, o) {
			char line[128];
			if (i >= 5) { /* most bytes first: the rest in one sum */
				rest[0] += col(o, "read_bytes");
				rest[1] += col(o, "write_bytes");
				continue;
			}
			snprintf(line, sizeof(line), "%sPID %lld %s %.1f MB read, %.1f MB written", i ? "; " : "",
				 (long long)json_integer_value(json_object_get(o, "pid")),
				 json_string_value(json_object_get(o, RK_NAME)) ?
					 json_string_value(json_object_get(o, RK_NAME)) : "?",
				 col(o, "read_bytes") / 1e6, col(o, "write_bytes") / 1e6);
			html_esc(f, line);
		}
		if (json_array_size(others) > 5)
			fprintf(f, "; and %zu more processes, %.1f MB read, %.1f MB written",
				json_array_size(others) - 5, rest[0] / 1e6, rest[1] / 1e6);
		fputs("</p>\n", f);
	}
	bool series = false;
	json_array_foreach(devs, i, dv)
		series |= json_array_size(json_object_get(dv, RK_SERIES)) > 1;
	if (series) {
		fputs("<div class=\"charts\">\n", f);
		device_charts(p, r, devs);
		fputs("</div>\n", f);
	}
}
