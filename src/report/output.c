/* Where results go: stdout or --output, --json and --html; opened before the run (userfile.c). */
#include "base/cluster.h"
#include "base/common.h"
#include "report/report.h"
#include "base/userfile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_stdout(const char *path)
{
	return !path[0] || !strcmp(path, "-");
}

/*
 * A path made canonical where it may not exist yet: the real path of its
 * directory plus its last component (a dangling symlink is followed once).
 */
static void canonical(const char *path, char *out, size_t len)
{
	char link[PATH_MAX], joined[2 * PATH_MAX], dir[2 * PATH_MAX], real[PATH_MAX];
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = 0;
		const char *slash = strrchr(path, '/');
		if (link[0] == '/' || !slash)
			snprintf(joined, sizeof(joined), "%s", link);
		else
			snprintf(joined, sizeof(joined), "%.*s%s", (int)(slash - path + 1), path, link);
		path = joined;
	}
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 0, path);
	if (!realpath(!slash ? "." : dir[0] ? dir : "/", real))
		snprintf(real, sizeof(real), "%.*s", (int)sizeof(real) - 1, dir);
	snprintf(out, len, "%s/%s", real, slash ? slash + 1 : path);
}

/* Do two paths name one file: the same inode, or the same canonical name? */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	char ca[3 * PATH_MAX], cb[3 * PATH_MAX];
	canonical(a, ca, sizeof(ca));
	canonical(b, cb, sizeof(cb));
	return !strcmp(ca, cb);
}

static int open_all(struct outputs *o, const struct settings *s, struct ig_err *e)
{
	memset(o, 0, sizeof(*o));
	o->out = stdout;
	o->out_name = is_stdout(s->output) ? "stdout" : s->output;
	o->json_name = s->json;
	if (s->json[0] && !is_stdout(s->output) && same_file(s->output, s->json))
		return err_set(e, EXIT_USAGE, "--output and --json both name %s: give them different files",
			       s->json);
	if (s->json[0] && is_stdout(s->json) && is_stdout(s->output))
		return err_set(e, EXIT_USAGE, s->output_format == OUT_JSON ?
				       "--json -: JSON already goes to stdout with --output-format=json" :
				       s->output_format == OUT_NORMAL ?
				       "--json -: the text report goes to stdout (give --output FILE, or use --output-format=json)" :
				       "--json -: fio's format goes to stdout (give --output FILE)");
	if (s->html[0] && ((!is_stdout(s->output) && same_file(s->output, s->html)) ||
			   (s->json[0] && !is_stdout(s->json) && same_file(s->json, s->html))))
		return err_set(e, EXIT_USAGE, "--html %s: the same file as --output or --json: give it its own",
			       s->html);
	if (s->html[0] && is_stdout(s->html) && (is_stdout(s->output) || (s->json[0] && is_stdout(s->json))))
		return err_set(e, EXIT_USAGE, "--html -: stdout already carries the results (give an HTML file name)");
	/* Every one checked before any is created or cut. */
	if ((!is_stdout(s->output) && outfile_check("--output", s->output, e)) ||
	    (s->json[0] && !is_stdout(s->json) && outfile_check("--json", s->json, e)) ||
	    (s->html[0] && !is_stdout(s->html) && outfile_check("--html", s->html, e)))
		return -1;
	if (s->html[0] && !(o->chartjs = html_chartjs_load(e)))
		return -1;
	if (!is_stdout(s->output) && !(o->out = outfile_open("--output", s->output, false, e)))
		goto fail;
	if (s->json[0] && !(o->json = is_stdout(s->json) ? stdout : outfile_open("--json", s->json, false, e)))
		goto fail;
	if (s->html[0] && !(o->html = is_stdout(s->html) ? stdout : outfile_open("--html", s->html, false, e)))
		goto fail;
	o->html_name = s->html;
	return 0;
fail:
	if (o->out && o->out != stdout)
		fclose(o->out);
	if (o->json && o->json != stdout)
		fclose(o->json);
	free(o->chartjs);
	memset(o, 0, sizeof(*o));
	o->out = stdout;
	return -1;
}

bool outputs_want_root(const struct outputs *o, const struct settings *s)
{
	return s->output_format == OUT_JSON || o->json || o->html;
}

static void close_all(struct outputs *o)
{
	if (o->out && o->out != stdout)
		fclose(o->out);
	if (o->json && o->json != stdout)
		fclose(o->json);
	if (o->html && o->html != stdout)
		fclose(o->html);
	free(o->chartjs);
	memset(o, 0, sizeof(*o));
	o->out = stdout;
}

int outputs_open(struct outputs *o, const struct settings *s, html_summary_fn summary, struct ig_err *e)
{
	/* Several ranks: rank 0 writes the merged results, the others nothing; rank 0's verdict holds for all. */
	if (cluster_rank()) {
		memset(o, 0, sizeof(*o));
		o->out_name = "/dev/null";
		o->out = fopen(o->out_name, "w");
		o->out = o->out ? o->out : stdout;
	} else if (open_all(o, s, e)) {
		close_all(o);
	}
	if (cluster_agree(NULL, e)) {
		close_all(o);
		return -1;
	}
	o->summary = summary;
	return 0;
}

static int dump(json_t *root, FILE *f, const char *name)
{
	int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	if (rc || fputc('\n', f) == EOF || fflush(f)) {
		msg_err("cannot write JSON to %s: %s", name, strerror(errno));
		return -1;
	}
	return 0;
}

int outputs_finish(struct outputs *o, const struct settings *s, json_t *root, int status)
{
	bool bad = false;
	if (root && s->output_format == OUT_JSON)
		bad |= dump(root, o->out, o->out_name) != 0;
	if (root && o->json)
		bad |= dump(root, o->json, o->json_name) != 0;
	if (root && o->html) {
		struct html_result one = { root, "" };
		if (html_write(o->html, &one, 1, o->chartjs, o->summary)) {
			msg_err("cannot write the HTML report to %s: %s", o->html_name, strerror(errno));
			bad = true;
		}
	}
	if (fflush(o->out) == EOF) {
		msg_err("cannot write to %s: %s", o->out_name, strerror(errno));
		bad = true;
	}
	if (o->out != stdout && fclose(o->out))
		bad = true;
	if (o->json && o->json != stdout && fclose(o->json))
		bad = true;
	if (o->html && o->html != stdout && fclose(o->html))
		bad = true;
	free(o->chartjs);
	o->chartjs = NULL;
	o->out = stdout;
	o->json = o->html = NULL;
	return bad && !status ? EXIT_IOERR : status;
}
