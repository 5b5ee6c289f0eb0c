/*
 * The HTML report: one self-contained page (Chart.js inlined from Debian's
 * libjs-chart.js, the page's own script and style embedded) for one or more
 * saved results.  It renders the JSON a command writes, so `--html` on a run
 * and `iogauge report` on its saved file give the same page.  The summary
 * table is the command's own text (its formatter, fed the saved result), so
 * it keeps its familiar shape.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "report/html.h"
#include "base/userfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CHARTJS_DEBIAN "/usr/share/javascript/chart.js/chart.min.js"
#define CHARTJS_MAX (16u << 20)

const char *html_chartjs_path(void)
{
	const char *p = getenv("IOGAUGE_CHARTJS");
	return p && *p ? p : CHARTJS_DEBIAN;
}

char *html_chartjs_load(struct ig_err *e)
{
	const char *path = html_chartjs_path();
	struct ig_err why = { 0 };
	FILE *f = infile_open("Chart.js at", path, &why);
	if (!f) {
		err_set(e, EXIT_USAGE,
			"HTML report: cannot read %s (install Debian's libjs-chart.js, or set IOGAUGE_CHARTJS)",
			why.msg);
		return NULL;
	}
	char *buf = xcalloc(1, CHARTJS_MAX + 1);
	size_t n = fread(buf, 1, CHARTJS_MAX + 1, f);
	fclose(f);
	if (n == 0 || n > CHARTJS_MAX || !strstr(buf, "Chart")) {
		err_set(e, EXIT_USAGE, "HTML report: %s does not look like Chart.js (install Debian's libjs-chart.js)",
			path);
		free(buf);
		return NULL;
	}
	return buf;
}

void html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* Script text inside <script>: "</script" would end it early, so "</" becomes "<\/". */
static void write_script(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (p[0] == '<' && p[1] == '/' && !strncasecmp(p + 2, "script", 6)) {
			fputs("<\\/", f);
			p++;
			continue;
		}
		fputc(*p, f);
	}
}

/* ---- which jobs ran where */

unsigned html_entries(const json_t *root, struct entry **out)
{
	const json_t *jobs = json_object_get(root, RK_JOBS), *j;
	size_t i;
	unsigned n = 0;
	*out = xcalloc(json_array_size(jobs) + 1, sizeof(**out));
	json_array_foreach(jobs, i, j) {
		struct entry *e = &(*out)[n++];
		e->job = j;
		e->kase = json_object_get(j, RK_CASE) ? rk_str(j, RK_CASE) : rk_str(j, RK_NAME);
		e->target = json_object_get(j, RK_TARGET) ?
				    rk_str(j, RK_TARGET) :
				    rk_str(json_array_get(json_object_get(j, RK_TARGETS), 0), RK_PATH);
		json_int_t pass = json_integer_value(json_object_get(j, RK_PASS));
		e->pass = pass > 0 ? (int)pass : 1;
	}
	return n;
}

unsigned html_targets(const json_t *root, const char ***out)
{
	const json_t *st = json_object_get(json_object_get(root, RK_SUITE), RK_TARGETS), *t;
	size_t i;
	unsigned n = 0;
	if (st) {
		*out = xcalloc(json_array_size(st) + 1, sizeof(char *));
		json_array_foreach(st, i, t)
			(*out)[n++] = rk_str(t, RK_PATH);
		return n;
	}
	struct entry *en;
	unsigned ne = html_entries(root, &en);
	*out = xcalloc(ne + 1, sizeof(char *));
	for (unsigned k = 0; k < ne; k++) {
		unsigned m = 0;
		while (m < n && strcmp((*out)[m], en[k].target))
			m++;
		if (m == n)
			(*out)[n++] = en[k].target;
	}
	free(en);
	return n;
}

/* ---- the parts of a result's section */

static void row(FILE *f, const char *name, const char *value)
{
	if (!value || !*value)
		return;
	fprintf(f, "<tr><th>%s</th><td>", name);
	html_esc(f, value);
	fputs("</td></tr>\n", f);
}

static void target_rows(FILE *f, const json_t *root)
{
	const json_t *st = json_object_get(json_object_get(root, RK_SUITE), RK_TARGETS), *t;
	size_t i;
	char line[PATH_MAX * 2 + 256], sz[32];
	if (!st) {
		/* run: every distinct file of every job. */
		struct entry *en;
		unsigned n = html_entries(root, &en);
		for (unsigned k = 0; k < n; k++) {
			const json_t *tg;
			size_t m;
			json_array_foreach(json_object_get(en[k].job, RK_TARGETS), m, tg) {
				/* A file the run creates and grows (dd of=) has no size to give. */
				bool grown = rk_num(tg, "size") <= 0 && json_is_true(json_object_get(tg, RK_CREATED));
				snprintf(line, sizeof(line), "%s: %s%s%s, %s", rk_str(tg, RK_PATH),
					 *rk_str(tg, "fstype") ? rk_str(tg, "fstype") : "raw device",
					 *rk_str(tg, "device") ? " on " : "", rk_str(tg, "device"),
					 grown ? "created by the run" : fmt_bytes(sz, sizeof(sz), rk_num(tg, "size")));
				row(f, k || m ? "" : "Targets", line);
			}
		}
		free(en);
		return;
	}
	json_array_foreach(st, i, t) {
		if (json_is_string(json_object_get(t, "refused")))
			snprintf(line, sizeof(line), "%s: not measured: %s", rk_str(t, RK_PATH), rk_str(t, "refused"));
		else if (json_is_true(json_object_get(t, RK_BLOCKDEV)))
			snprintf(line, sizeof(line), "%s: block device, region %s", rk_str(t, RK_PATH),
				 fmt_bytes(sz, sizeof(sz), rk_num(t, "size")));
		else
			snprintf(line, sizeof(line), "%s: %s on %s, test file %s (%s)", rk_str(t, RK_PATH),
				 *rk_str(t, "fstype") ? rk_str(t, "fstype") : "unknown fs",
				 *rk_str(t, "device") ? rk_str(t, "device") : "no block device",
				 rk_str(t, "file"), fmt_bytes(sz, sizeof(sz), rk_num(t, "size")));
		row(f, i ? "" : "Targets", line);
	}
}

static void write_meta(struct page *p, unsigned r)
{
	const json_t *root = p->res[r].root, *me = json_object_get(root, RK_IOGAUGE);
	const json_t *host = json_object_get(root, RK_HOST);
	FILE *f = p->f;
	char buf[512];
	fputs("<table class=\"meta\">\n", f);
	snprintf(buf, sizeof(buf), "iogauge %s", rk_str(me, RK_COMMAND));
	row(f, "Command", buf);
	row(f, "Command line", rk_str(root, "command_line"));
	row(f, "Written", rk_str(root, RK_TIME));
	if (host) {
		snprintf(buf, sizeof(buf), "%s, Linux %s (%s), %lld CPUs", rk_str(host, RK_NAME), rk_str(host, "kernel"),
			 rk_str(host, "machine"), (long long)json_integer_value(json_object_get(host, "cpus")));
		row(f, "Host", buf);
	}
	row(f, "iogauge version", rk_str(me, RK_VERSION));
	json_int_t status = json_integer_value(json_object_get(root, RK_STATUS));
	snprintf(buf, sizeof(buf), "%lld%s%s%s", (long long)status,
		 status == 0 ? " (done)" : status == 1 ? " (an I/O error or a full disk)" :
		 status == 2 ? " (a refusal or bad input)" : " (stopped by a signal)",
		 *rk_str(root, RK_ERROR) ? ": " : "", rk_str(root, RK_ERROR));
	row(f, "Exit status", buf);
	target_rows(f, root);
	fputs("</table>\n", f);
}

/* The command's own text, rebuilt from the saved result by its own formatter. */
static void write_summary(struct page *p, unsigned r)
{
	const json_t *root = p->res[r].root;
	char *buf = NULL;
	size_t len = 0;
	struct ig_err e = { 0 };
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	/* The command's own text: the command layer's callback (command_saved_summary). */
	if (p->summary) {
		p->summary(m, root, &e);
		fflush(m);
	}
	/* run, and suites that print only while they run: fio's text. */
	if (!len && !e.status) {
		struct run_result rr;
		if (!run_result_from_json(root, &rr, &e))
			report_text(m, &rr);
		run_result_free(&rr);
	}
	if (e.status)
		fprintf(m, "(the summary cannot be rebuilt from this result: %s)\n", e.msg);
	fflush(m);
	if (!len) /* a refusal before any job ran: say so, not an empty box */
		fprintf(m, "Nothing was measured%s%s\n", *rk_str(root, RK_ERROR) ? ": " : ".", rk_str(root, RK_ERROR));
	fclose(m);
	fputs("<pre class=\"summary\">", p->f);
	html_esc(p->f, buf);
	fputs("</pre>\n", p->f);
	free(buf);
}

static void note(FILE *f, const char *cls, const char *text)
{
	fprintf(f, "<li class=\"%s\">", cls);
	html_esc(f, text);
	fputs("</li>\n", f);
}

static void device_line(FILE *f, const char *who, const char *name, const double *req, const double *dev)
{
	char line[PATH_MAX + 256], a[32], b[32], c[32], d[32];
	snprintf(line, sizeof(line),
		 "%s%sdevice %s: read %s for %s requested, wrote %s for %s requested (measured parts)",
		 who, *who ? ", " : "", name, fmt_bytes(a, sizeof(a), dev[0]), fmt_bytes(b, sizeof(b), req[0]),
		 fmt_bytes(c, sizeof(c), dev[1]), fmt_bytes(d, sizeof(d), req[1]));
	note(f, "dev", line);
	if (req[0] > 0 && dev[0] < 0.5 * req[0])
		note(f, "warn", "Less than half of the bytes read reached the device: a cache answered the rest.");
	if (req[1] > 0 && dev[1] < 0.5 * req[1])
		note(f, "warn", "Less than half of the bytes written reached the device during the run "
				"(page cache, compression or deduplication).");
}

/*
 * Bytes asked for against bytes the device saw: per target for suites (each
 * job carries its device's counters), for the whole run otherwise.
 */
static void device_notes(FILE *f, const json_t *root)
{
	const char **targets;
	unsigned nt = html_targets(root, &targets);
	struct entry *en;
	unsigned n = html_entries(root, &en);
	bool suite = json_object_get(root, RK_SUITE) != NULL;
	for (unsigned t = 0; t < (suite ? nt : 1); t++) {
		double req[2] = { 0, 0 }, dev[2] = { 0, 0 };
		char name[64] = "";
		for (unsigned k = 0; k < n; k++) {
			if (suite && strcmp(en[k].target, targets[t]))
				continue;
			req[0] += rk_num(json_object_get(en[k].job, "read"), "bytes");
			req[1] += rk_num(json_object_get(en[k].job, "write"), "bytes");
			const json_t *dv = json_array_get(json_object_get(en[k].job, RK_DEVICES), 0);
			if (suite && dv) {
				dev[0] += rk_num(dv, "read_bytes");
				dev[1] += rk_num(dv, "write_bytes");
				snprintf(name, sizeof(name), "%s", rk_str(dv, RK_NAME));
			}
		}
		const json_t *devs = json_object_get(root, RK_DEVICES);
		if (!suite && json_array_size(devs) == 1) {
			const json_t *dv = json_array_get(devs, 0);
			dev[0] = rk_num(dv, "read_bytes");
			dev[1] = rk_num(dv, "write_bytes");
			snprintf(name, sizeof(name), "%s", rk_str(dv, RK_NAME));
		}
		if (name[0])
			device_line(f, nt > 1 ? targets[t] : "", name, req, dev);
	}
	free(targets);
	free(en);
}

/* I/O mode, data, page-cache residency: said once per distinct value. */
static void job_notes(FILE *f, const json_t *root)
{
	struct entry *en;
	unsigned n = html_entries(root, &en);
	const char *modes[8];
	unsigned nmodes = 0;
	double cached = 0, region = 0;
	char line[512], a[32], b[32];
	for (unsigned k = 0; k < n; k++) {
		const char *m = rk_str(en[k].job, "io_mode");
		unsigned i = 0;
		while (i < nmodes && strcmp(modes[i], m))
			i++;
		if (i == nmodes && nmodes < ARRAY_SIZE(modes))
			modes[nmodes++] = m;
		const json_t *res = json_object_get(en[k].job, "resident_before_bytes");
		if (json_is_number(res) && rk_num(json_object_get(en[k].job, "read"), "ios") > 0) {
			cached += json_number_value(res);
			region += rk_num(json_object_get(en[k].job, RK_OPTIONS), "size");
		}
	}
	for (unsigned k = 0; k < n; k++) {
		if (!json_object_get(en[k].job, RK_STEADYSTATE))
			continue;
		struct run_result one = { .jobs = xcalloc(1, sizeof(struct job_result)), .njobs = 1 };
		struct ig_err e = { 0 };
		char ss[512], all[1024];
		if (!job_result_from_json(en[k].job, &one.jobs[0], &e) && one.jobs[0].ss.n) {
			ss_describe(&one.jobs[0].ss, ss, sizeof(ss));
			snprintf(all, sizeof(all), "%s: steady state: %s", rk_str(en[k].job, RK_NAME), ss);
			note(f, one.jobs[0].ss.attained ? "info" : "warn", all);
		}
		run_result_free(&one);
	}
	for (unsigned i = 0; i < nmodes; i++) {
		snprintf(line, sizeof(line), "I/O: %s", modes[i]);
		note(f, strstr(modes[i], "page cache") ? "warn" : "info", line);
	}
	unsigned w = 0; /* the first job that wrote: reads alone have no data to speak of */
	while (w < n && rk_num(json_object_get(en[w].job, "write"), "ios") <= 0)
		w++;
	if (w < n) {
		const char *data = rk_str(json_object_get(en[w].job, RK_OPTIONS), "data");
		if (!strcmp(data, "random") || !*data)
			snprintf(line, sizeof(line), "Data written: random, incompressible, refreshed on every write (no two blocks dedupe)");
		else
			snprintf(line, sizeof(line), "Data written: %s (compressible or repeating: a compressing or deduplicating device may store less than it was given)", data);
		note(f, "info", line);
	}
	if (region > 0) {
		snprintf(line, sizeof(line), "Page cache before the reads: %s of %s of the regions read were resident (mincore)%s",
			 fmt_bytes(a, sizeof(a), cached), fmt_bytes(b, sizeof(b), region),
			 cached > 0 ? ": those reads may be served by memory" : "");
		note(f, cached > 0.01 * region ? "warn" : "info", line);
	}
	free(en);
}

static void write_notes(struct page *p, unsigned r)
{
	const json_t *root = p->res[r].root, *x;
	FILE *f = p->f;
	size_t i;
	fputs("<ul class=\"notes\">\n", f);
	job_notes(f, root);
	device_notes(f, root);
	json_array_foreach(json_object_get(json_object_get(root, RK_SUITE), RK_TARGETS), i, x) {
		char line[PATH_MAX + 128];
		if (json_is_true(json_object_get(x, RK_BUFFERED_FALLBACK))) {
			snprintf(line, sizeof(line), "%s: the file system refuses O_DIRECT: buffered I/O, cache invalidated before reads, writes timed to fsync", rk_str(x, RK_PATH));
			note(f, "warn", line);
		}
		if (json_is_true(json_object_get(x, "shrunk"))) {
			if (json_is_true(json_object_get(x, RK_BLOCKDEV)))
				snprintf(line, sizeof(line), "%s: the region is the whole device (smaller than --size)", rk_str(x, RK_PATH));
			else if (!strcmp(rk_str(x, "file"), rk_str(x, RK_PATH))) /* a file the user named */
				snprintf(line, sizeof(line), "%s: the region is the whole file (smaller than the size asked)", rk_str(x, RK_PATH));
			else
				snprintf(line, sizeof(line), "%s: the test file was made smaller to fit the free space", rk_str(x, RK_PATH));
			note(f, "warn", line);
		}
	}
	json_array_foreach(json_object_get(root, RK_NOTES), i, x)
		note(f, "warn", json_string_value(x) ? json_string_value(x) : "");
	if (json_is_true(json_object_get(root, RK_INTERRUPTED)))
		note(f, "warn", "Interrupted by a signal: the figures cover the time until then.");
	fputs("</ul>\n", f);
}

static void write_result(struct page *p, unsigned r)
{
	FILE *f = p->f;
	const json_t *root = p->res[r].root;
	const char *cmd = rk_str(json_object_get(root, RK_IOGAUGE), RK_COMMAND);
	fprintf(f, "<section class=\"result\" id=\"result%u\">\n<h2>", r);
	if (*p->res[r].label) {
		html_esc(f, p->res[r].label);
		fputs(": ", f);
	}
	fprintf(f, "iogauge ");
	html_esc(f, cmd);
	fputs("</h2>\n", f);
	write_meta(p, r);
	fputs("<h3>Summary</h3>\n", f);
	write_summary(p, r);
	if (json_array_size(json_object_get(root, RK_JOBS))) { /* nothing ran: nothing to qualify */
		fputs("<h3>What the figures include</h3>\n", f);
		write_notes(p, r);
		html_iostat(p, r);
	}
	charts_suite(p, r);
	charts_compare(p, &r, 1);
	charts_series(p, r);
	fputs("</section>\n", f);
}

int html_write(FILE *f, const struct html_result *res, unsigned n, const char *chartjs,
	       html_summary_fn summary)
{
	struct page p = { .f = f, .res = res, .nres = n, .charts = json_array(), .summary = summary };
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>iogauge report", f);
	if (n == 1) {
		fputs(": ", f);
		html_esc(f, rk_str(json_object_get(res[0].root, RK_IOGAUGE), RK_COMMAND));
	}
	fputs("</title>\n<style>\n", f);
	fputs(html_css, f);
	fputs("</style>\n<script>\n", f);
	write_script(f, chartjs);
	fputs("\n</script>\n</head>\n<body>\n<header><h1>iogauge report</h1><p>", f);
	fprintf(f, "%u result%s. Generated by iogauge %s.", n, n == 1 ? "" : "s", IOGAUGE_VERSION);
	fputs(" Latency is completion latency (clat); MB/s is 10<sup>6</sup> bytes per second.</p></header>\n", f);
	if (n > 1) {
		unsigned *all = xcalloc(n, sizeof(unsigned));
		for (unsigned i = 0; i < n; i++)
			all[i] = i;
		fputs("<section class=\"compare\" id=\"compare\">\n<h2>The results side by side</h2>\n", f);
		charts_compare(&p, all, n);
		fputs("</section>\n", f);
		free(all);
	}
	for (unsigned r = 0; r < n; r++)
		write_result(&p, r);
	/* The chart data: JSON with '/' escaped, so no "</script>" can appear in it. */
	json_t *data = json_object();
	json_object_set_new(data, "charts", p.charts);
	char *text = json_dumps(data, JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_REAL_PRECISION(10));
	json_decref(data);
	fputs("<script type=\"application/json\" id=\"iogauge-data\">", f);
	fputs(text ? text : "{\"charts\":[]}", f);
	free(text);
	fputs("</script>\n<script type=\"application/json\" id=\"iogauge-rendered\"></script>\n<script>\n", f);
	write_script(f, html_js);
	fputs("\n</script>\n</body>\n</html>\n", f);
	return fflush(f) || ferror(f) ? -1 : 0;
}
