/*
 * Internals of the HTML writer (html.c: the page; html_charts.c: the chart
 * data).  A chart is a canvas the page places and a spec in the page's data
 * block that html.js turns into a Chart.js chart.
 */
#ifndef IOGAUGE_REPORT_HTML_H
#define IOGAUGE_REPORT_HTML_H

#include <stdio.h>
#include <jansson.h>
#include "report/report.h"
#include "report/result_read.h"

struct page {
	FILE *f;
	const struct html_result *res;
	unsigned nres;
	json_t *charts; /* the specs, in the order of their canvases */
	html_summary_fn summary; /* the command layer's text of a result; NULL: fio's text */
};

/* The embedded script and style (html_assets.c, from html.js and html.css). */
extern const char html_js[];
extern const char html_css[];

/* Text with <, >, & and quotes escaped. */
void html_esc(FILE *f, const char *s);
/* Script text for inside <script> ("</script" escaped). */
void html_script(FILE *f, const char *s);

/*
 * A new chart: its canvas is written now; the spec is filled by the caller.
 * kind: "bar" (categories), "line" (x, y points).  key names it in the
 * rendered summary the tests read.
 */
json_t *chart_new(struct page *p, const char *kind, const char *key, const char *title,
		  const char *xlabel, const char *ylabel);
/* A dataset of spec c: {label, data: []}; returns it. */
json_t *chart_dataset(json_t *c, const char *label);
/* A point {x, y} appended to a dataset's data. */
void chart_point(json_t *ds, double x, double y);

/* Charts over several results (several targets or saved files): bars and percentile curves. */
void charts_compare(struct page *p, const unsigned *which, unsigned n);
/* One result's own charts: per-second series of every job. */
void charts_series(struct page *p, unsigned r);
/* The charts of a suite's own findings (scale's knee), when the result has them. */
void charts_suite(struct page *p, unsigned r);

/* The device's iostat -x columns over the measured part and per second, other processes' I/O. */
void html_iostat(struct page *p, unsigned r);

/* Latency percentile points of l, x = 1/(1-p), y in microseconds: appended to ds. */
void chart_pct_points(json_t *ds, const struct lat_stats *l);

#endif
