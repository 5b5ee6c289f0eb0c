/*
 * The HTML report: one self-contained page (Chart.js inlined from Debian's
 * libjs-chart.js, the page's own script and style embedded) for one or more
 * saved results.  It renders the JSON a command writes, so `--html` on a run
 * and `iogauge report` on its saved file give the same page.  The summary
 * table is the command's own text (its formatter, fed the saved result), so
 * it keeps its familiar shape.
 */
#include "common.h"
#include "report/html.h"
#include "userfile.h"

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

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* ---- which jobs ran where */

unsigned html_entries(const json_t *root, struct entry **out)
{
	const json_t *jobs = json_object_get(root, "jobs"), *j;
	size_t i;
	unsigned n = 0;
	*out = xcalloc(json_array_size(jobs) + 1, sizeof(**out));
	json_array_foreach(jobs, i, j) {
		struct entry *e = &(*out)[n++];
		e->job = j;
		e->kase = json_object_get(j, "case") ? str(j, "case") : str(j, "name");
		e->target = json_object_get(j, "target") ?
				    str(j, "target") :
				    str(json_array_get(json_object_get(j, "targets"), 0), "path");
		json_int_t pass = json_integer_value(json_object_get(j, "pass"));
		e->pass = pass > 0 ? (int)pass : 1;
	}
	return n;
}

unsigned html_targets(const json_t *root, const char ***out)
{
	const json_t *st = json_object_get(json_object_get(root, "suite"), "targets"), *t;
	size_t i;
	unsigned n = 0;
	if (st) {
		*out = xcalloc(json_array_size(st) + 1, sizeof(char *));
		json_array_foreach(st, i, t)
			(*out)[n++] = str(t, "path");
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
	const json_t *st = json_object_get(json_object_get(root, "suite"), "targets"), *t;
	size_t i;
	char line[PATH_MAX * 2 + 256], sz[32];
	if (!st) {
		/* run: every distinct file of every job. */
		struct entry *en;
		unsigned n = html_entries(root, &en);
		for (unsigned k = 0; k < n; k++) {
			const json_t *tg;
			size_t m;
			json_array_foreach(json_object_get(en[k].job, "targets"), m, tg) {
				/* A file the run creates and grows (dd of=) has no size to give. */
				bool grown = num(tg, "size") <= 0 && json_is_true(json_object_get(tg, "created"));
				snprintf(line, sizeof(line), "%s: %s%s%s, %s", str(tg, "path"),
					 *str(tg, "fstype") ? str(tg, "fstype") : "raw device",
					 *str(tg, "device") ? " on " : "", str(tg, "device"),
					 grown ? "created by the run" : fmt_bytes(sz, sizeof(sz), num(tg, "size")));
				row(f, k || m ? "" : "Targets", line);
			}
		}
		free(en);
		return;
	}
	json_array_foreach(st, i, t) {
		if (json_is_string(json_object_get(t, "refused")))
			snprintf(line, sizeof(line), "%s: not measured: %s", str(t, "path"), str(t, "refused"));
		else if (json_is_true(json_object_get(t, "blockdev")))
			snprintf(line, sizeof(line), "%s: block device, region %s", str(t, "path"),
				 fmt_bytes(sz, sizeof(sz), num(t, "size")));
		else
			snprintf(line, sizeof(line), "%s: %s on %s, test file %s (%s)", str(t, "path"),
				 *str(t, "fstype") ? str(t, "fstype") : "unknown fs",
				 *str(t, "device") ? str(t, "device") : "no block device",
				 str(t, "file"), fmt_bytes(sz, sizeof(sz), num(t, "size")));
		row(f, i ? "" : "Targets", line);
	}
}

static void write_meta(struct page *p, unsigned r)
{
	const json_t *root = p->res[r].root, *me = json_object_get(root, "iogauge");
	const json_t *host = json_object_get(root, "host");
	FILE *f = p->f;
	char buf[512];
	fputs("<table class=\"meta\">\n", f);
	snprintf(buf, sizeof(buf), "iogauge %s", str(me, "command"));
	row(f, "Command", buf);
	row(f, "Command line", str(root, "command_line"));
	row(f, "Written", str(root, "time"));
	if (host) {
		snprintf(buf, sizeof(buf), "%s, Linux %s (%s), %lld CPUs", str(host, "name"), str(host, "kernel"),
			 str(host, "machine"), (long long)json_integer_value(json_object_get(host, "cpus")));
		row(f, "Host", buf);
	}
	row(f, "iogauge version", str(me, "version"));
	json_int_t status = json_integer_value(json_object_get(root, "status"));
	snprintf(buf, sizeof(buf), "%lld%s%s%s", (long long)status,
		 status == 0 ? " (done)" : status == 1 ? " (an I/O error or a full disk)" :
		 status == 2 ? " (a refusal or bad input)" : " (stopped by a signal)",
		 *str(root, "error") ? ": " : "", str(root, "error"));
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
		fprintf(m, "Nothing was measured%s%s\n", *str(root, "error") ? ": " : ".", str(root, "error"));
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
	bool suite = json_object_get(root, "suite") != NULL;
	for (unsigned t = 0; t < (suite ? nt : 1); t++) {
		double req[2] = { 0, 0 }, dev[2] = { 0, 0 };
		char name[64] = "";
		for (unsigned k = 0; k < n; k++) {
			if (suite && strcmp(en[k].target, targets[t]))
				continue;
			req[0] += num(json_object_get(en[k].job, "read"), "bytes");
			req[1] += num(json_object_get(en[k].job, "write"), "bytes");
			const json_t *dv = json_array_get(json_object_get(en[k].job, "devices"), 0);
			if (suite && dv) {
				dev[0] += num(dv, "read_bytes");
				dev[1] += num(dv, "write_bytes");
				snprintf(name, sizeof(name), "%s", str(dv, "name"));
			}
		}
		const json_t *devs = json_object_get(root, "devices");
		if (!suite && json_array_size(devs) == 1) {
			const json_t *dv = json_array_get(devs, 0);
			dev[0] = num(dv, "read_bytes");
			dev[1] = num(dv, "write_bytes");
			snprintf(name, sizeof(name), "%s", str(dv, "name"));
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
		const char *m = str(en[k].job, "io_mode");
		unsigned i = 0;
		while (i < nmodes && strcmp(modes[i], m))
			i++;
		if (i == nmodes && nmodes < ARRAY_SIZE(modes))
			modes[nmodes++] = m;
		const json_t *res = json_object_get(en[k].job, "resident_before_bytes");
		if (json_is_number(res) && num(json_object_get(en[k].job, "read"), "ios") > 0) {
			cached += json_number_value(res);
			region += num(json_object_get(en[k].job, "options"), "size");
		}
	}
	for (unsigned k = 0; k < n; k++) {
		if (!json_object_get(en[k].job, "steadystate"))
			continue;
		struct run_result one = { .jobs = xcalloc(1, sizeof(struct job_result)), .njobs = 1 };
		struct ig_err e = { 0 };
		char ss[512], all[1024];
		if (!job_result_from_json(en[k].job, &one.jobs[0], &e) && one.jobs[0].ss.n) {
			ss_describe(&one.jobs[0].ss, ss, sizeof(ss));
			snprintf(all, sizeof(all), "%s: steady state: %s", str(en[k].job, "name"), ss);
			note(f, one.jobs[0].ss.attained ? "info" : "warn", all);
		}
		run_result_free(&one);
	}
	for (unsigned i = 0; i < nmodes; i++) {
		snprintf(line, sizeof(line), "I/O: %s", modes[i]);
		note(f, strstr(modes[i], "page cache") ? "warn" : "info", line);
	}
	unsigned w = 0; /* the first job that wrote: reads alone have no data to speak of */
	while (w < n && num(json_object_get(en[w].job, "write"), "ios") <= 0)
		w++;
	if (w < n) {
		const char *data = str(json_object_get(en[w].job, "options"), "data");
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
	json_array_foreach(json_object_get(json_object_get(root, "suite"), "targets"), i, x) {
		char line[PATH_MAX + 128];
		if (json_is_true(json_object_get(x, "buffered_fallback"))) {
			snprintf(line, sizeof(line), "%s: the file system refuses O_DIRECT: buffered I/O, cache invalidated before reads, writes timed to fsync", str(x, "path"));
			note(f, "warn", line);
		}
		if (json_is_true(json_object_get(x, "shrunk"))) {
			if (json_is_true(json_object_get(x, "blockdev")))
				snprintf(line, sizeof(line), "%s: the region is the whole device (smaller than --size)", str(x, "path"));
			else if (!strcmp(str(x, "file"), str(x, "path"))) /* a file the user named */
				snprintf(line, sizeof(line), "%s: the region is the whole file (smaller than the size asked)", str(x, "path"));
			else
				snprintf(line, sizeof(line), "%s: the test file was made smaller to fit the free space", str(x, "path"));
			note(f, "warn", line);
		}
	}
	json_array_foreach(json_object_get(root, "notes"), i, x)
		note(f, "warn", json_string_value(x) ? json_string_value(x) : "");
	if (json_is_true(json_object_get(root, "interrupted")))
		note(f, "warn", "Interrupted by a signal: the figures cover the time until then.");
	fputs("</ul>\n", f);
}

static void write_result(struct page *p, unsigned r)
{
	FILE *f = p->f;
	const json_t *root = p->res[r].root;
	const char *cmd = str(json_object_get(root, "iogauge"), "command");
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
	if (json_array_size(json_object_get(root, "jobs"))) { /* nothing ran: nothing to qualify */
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
		html_esc(f, str(json_object_get(res[0].root, "iogauge"), "command"));
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
