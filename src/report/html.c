/*
 * The HTML report: one self-contained page (Chart.js inlined from Debian's
 * libjs-chart.js, the page's own script and style embedded) for one or more
 * saved results.  It renders the JSON a command writes, so `--html` on a run
 * and `iogauge report` on its saved file give the same page.  The summary
 * table is the command's own text (its formatter, fed the saved result), so
 * it keeps its familiar shape.
 */
#include "base/common.h"
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
void html_script(FILE *f, const char *s)
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

/* ---- the parts of a result's section */

static void row(FILE *f, const char *name, const char *value)
{
	if (!value || !*value)
		return;
	fprintf(f, "<tr><th>%s</th><td>", name);
	html_esc(f, value);
	fputs("</td></tr>\n", f);
}

static void target_rows(FILE *f, const json_t *root, const struct result_head *h)
{
	char line[PATH_MAX * 2 + 256], sz[32];
	if (!h->suite) {
		/* run: every distinct file of every job. */
		struct result_job *en;
		unsigned n = result_jobs(root, &en);
		for (unsigned k = 0; k < n; k++) {
			for (unsigned m = 0; m < en[k].ntargets; m++) {
				const struct result_jtarget *tg = &en[k].targets[m];
				/* A file the run creates and grows (dd of=) has no size to give. */
				bool grown = tg->size <= 0 && tg->created;
				snprintf(line, sizeof(line), "%s: %s%s%s, %s", tg->path, *tg->fstype ? tg->fstype : "raw device",
					 *tg->device ? " on " : "", tg->device,
					 grown ? "created by the run" : fmt_bytes(sz, sizeof(sz), tg->size));
				row(f, k || m ? "" : "Targets", line);
			}
		}
		result_jobs_free(en, n);
		return;
	}
	struct result_suite su;
	struct ig_err e = { 0 };
	result_suite(root, &su, &e); /* its targets even when a case is amiss: the summary says what is */
	for (unsigned i = 0; i < su.ntargets; i++) {
		const struct result_target *t = &su.targets[i];
		if (t->refused)
			snprintf(line, sizeof(line), "%s: not measured: %s", t->path, t->refused);
		else if (t->blockdev)
			snprintf(line, sizeof(line), "%s: block device, region %s", t->path,
				 fmt_bytes(sz, sizeof(sz), (double)t->size));
		else
			snprintf(line, sizeof(line), "%s: %s on %s, test file %s (%s)", t->path,
				 *t->fstype ? t->fstype : "unknown fs", *t->device ? t->device : "no block device",
				 t->file, fmt_bytes(sz, sizeof(sz), (double)t->size));
		row(f, i ? "" : "Targets", line);
	}
	result_suite_free(&su);
}

static void write_meta(struct page *p, unsigned r)
{
	const json_t *root = p->res[r].root;
	struct result_head h;
	FILE *f = p->f;
	char buf[512];
	result_head(root, &h);
	fputs("<table class=\"meta\">\n", f);
	snprintf(buf, sizeof(buf), "iogauge %s", h.command);
	row(f, "Command", buf);
	row(f, "Command line", h.command_line);
	row(f, "Written", h.time);
	if (h.has_host) {
		snprintf(buf, sizeof(buf), "%s, Linux %s (%s), %lld CPUs", h.host_name, h.kernel, h.machine, h.cpus);
		row(f, "Host", buf);
	}
	if (*h.imported)
		row(f, "Measured by", h.version); /* another tool's result, imported */
	else
		row(f, "iogauge version", h.version);
	snprintf(buf, sizeof(buf), "%lld%s%s%s", h.status,
		 h.status == 0 ? " (done)" : h.status == 1 ? " (an I/O error or a full disk)" :
		 h.status == 2 ? " (a refusal or bad input)" : " (stopped by a signal)",
		 *h.error ? ": " : "", h.error);
	row(f, "Exit status", buf);
	target_rows(f, root, &h);
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
	report_saved_text(m, root, p->summary, &e);
	if (e.status)
		fprintf(m, "(the summary cannot be rebuilt from this result: %s)\n", e.msg);
	fflush(m);
	if (!len) { /* a refusal before any job ran: say so, not an empty box */
		struct result_head h;
		result_head(root, &h);
		fprintf(m, "Nothing was measured%s%s\n", *h.error ? ": " : ".", h.error);
	}
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
static void device_notes(FILE *f, const json_t *root, const struct result_head *h)
{
	const char **targets;
	unsigned nt = result_targets(root, &targets);
	struct result_job *en;
	unsigned n = result_jobs(root, &en);
	bool suite = h->suite;
	for (unsigned t = 0; t < (suite ? nt : 1); t++) {
		double req[2] = { 0, 0 }, dev[2] = { 0, 0 };
		char name[64] = "";
		for (unsigned k = 0; k < n; k++) {
			if (suite && strcmp(en[k].target, targets[t]))
				continue;
			req[0] += result_or0(en[k].dir[0].bytes);
			req[1] += result_or0(en[k].dir[1].bytes);
			if (suite && en[k].has_dev) {
				dev[0] += en[k].dev_read_bytes;
				dev[1] += en[k].dev_write_bytes;
				snprintf(name, sizeof(name), "%s", en[k].dev_name);
			}
		}
		struct result_device dv;
		if (!suite && h->ndevs == 1 && result_device(root, 0, &dv)) {
			dev[0] = dv.read_bytes;
			dev[1] = dv.write_bytes;
			snprintf(name, sizeof(name), "%s", dv.name);
		}
		if (name[0])
			device_line(f, nt > 1 ? targets[t] : "", name, req, dev);
	}
	free(targets);
	result_jobs_free(en, n);
}

/* I/O mode, data, page-cache residency: said once per distinct value. */
static void job_notes(FILE *f, const json_t *root)
{
	struct result_job *en;
	unsigned n = result_jobs(root, &en);
	const char *modes[8];
	unsigned nmodes = 0;
	double cached = 0, region = 0;
	char line[512], a[32], b[32];
	for (unsigned k = 0; k < n; k++) {
		const char *m = en[k].io_mode;
		unsigned i = 0;
		while (i < nmodes && strcmp(modes[i], m))
			i++;
		/* An imported result says nothing of it. */
		if (i == nmodes && nmodes < ARRAY_SIZE(modes) && *m)
			modes[nmodes++] = m;
		if (en[k].has_resident && result_or0(en[k].dir[0].ios) > 0) {
			cached += en[k].resident_before;
			region += en[k].opt_size;
		}
	}
	for (unsigned k = 0; k < n; k++) {
		if (!en[k].has_steady)
			continue;
		struct run_result one = { .jobs = xcalloc(1, sizeof(struct job_result)), .njobs = 1 };
		struct ig_err e = { 0 };
		char ss[512], all[1024];
		if (!job_result_from_json(en[k].job, &one.jobs[0], &e) && one.jobs[0].ss.n) {
			ss_describe(&one.jobs[0].ss, ss, sizeof(ss));
			snprintf(all, sizeof(all), "%s: steady state: %s", en[k].name ? en[k].name : "", ss);
			note(f, one.jobs[0].ss.attained ? "info" : "warn", all);
		}
		run_result_free(&one);
	}
	for (unsigned i = 0; i < nmodes; i++) {
		snprintf(line, sizeof(line), "I/O: %s", modes[i]);
		note(f, strstr(modes[i], "page cache") ? "warn" : "info", line);
	}
	unsigned w = 0; /* the first job that wrote: reads alone have no data to speak of */
	while (w < n && result_or0(en[w].dir[1].ios) <= 0)
		w++;
	if (w < n) {
		const char *data = en[w].opt_data;
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
	result_jobs_free(en, n);
}

static void write_notes(struct page *p, unsigned r, const struct result_head *h)
{
	const json_t *root = p->res[r].root;
	FILE *f = p->f;
	fputs("<ul class=\"notes\">\n", f);
	job_notes(f, root);
	device_notes(f, root, h);
	struct result_suite su;
	struct ig_err e = { 0 };
	result_suite(root, &su, &e);
	for (unsigned i = 0; i < su.ntargets; i++) {
		const struct result_target *x = &su.targets[i];
		char line[PATH_MAX + 128];
		if (x->buffered_fallback) {
			snprintf(line, sizeof(line), "%s: the file system refuses O_DIRECT: buffered I/O, cache invalidated before reads, writes timed to fsync", x->path);
			note(f, "warn", line);
		}
		if (x->shrunk) {
			if (x->blockdev)
				snprintf(line, sizeof(line), "%s: the region is the whole device (smaller than --size)", x->path);
			else if (!strcmp(x->file, x->path)) /* a file the user named */
				snprintf(line, sizeof(line), "%s: the region is the whole file (smaller than the size asked)", x->path);
			else
				snprintf(line, sizeof(line), "%s: the test file was made smaller to fit the free space", x->path);
			note(f, "warn", line);
		}
	}
	result_suite_free(&su);
	for (unsigned i = 0; i < h->nnotes; i++)
		note(f, "warn", result_note(root, i));
	if (h->interrupted)
		note(f, "warn", "Interrupted by a signal: the figures cover the time until then.");
	fputs("</ul>\n", f);
}

static void write_result(struct page *p, unsigned r)
{
	FILE *f = p->f;
	struct result_head h;
	result_head(p->res[r].root, &h);
	fprintf(f, "<section class=\"result\" id=\"result%u\">\n<h2>", r);
	if (*p->res[r].label) {
		html_esc(f, p->res[r].label);
		fputs(": ", f);
	}
	fprintf(f, "iogauge ");
	html_esc(f, h.command);
	fputs("</h2>\n", f);
	write_meta(p, r);
	fputs("<h3>Summary</h3>\n", f);
	write_summary(p, r);
	if (h.njobs) { /* nothing ran: nothing to qualify */
		fputs("<h3>What the figures include</h3>\n", f);
		write_notes(p, r, &h);
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
		struct result_head h;
		result_head(res[0].root, &h);
		fputs(": ", f);
		html_esc(f, h.command);
	}
	fputs("</title>\n<style>\n", f);
	fputs(html_css, f);
	fputs("</style>\n<script>\n", f);
	html_script(f, chartjs);
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
	html_script(f, html_js);
	fputs("\n</script>\n</body>\n</html>\n", f);
	return fflush(f) || ferror(f) ? -1 : 0;
}
