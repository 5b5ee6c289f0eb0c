/* The progress line on stderr: in place on a terminal, a line a second elsewhere. */
#include "base/progress.h"
#include "base/common.h"

#include <stdio.h>
#include <unistd.h>

const char *const eta_names[] = { "auto", "always", "never", NULL };

void progress_line_init(struct progress_line *p, int eta, bool quiet)
{
	p->tty = isatty(STDERR_FILENO);
	p->on = !quiet && eta != ETA_MODE_NEVER && (p->tty || eta == ETA_MODE_ALWAYS);
	p->last_ns = 0;
}

bool progress_line_begin(struct progress_line *p)
{
	if (!p->on)
		return false;
	if (p->tty) {
		fputs("\r\033[K", stderr);
		return true;
	}
	uint64_t t = now_ns();
	if (p->last_ns && t - p->last_ns < NSEC_PER_SEC)
		return false;
	p->last_ns = t;
	return true;
}

void progress_line_end(struct progress_line *p)
{
	if (!p->tty)
		fputc('\n', stderr);
	fflush(stderr);
}

void progress_line_clear(const struct progress_line *p)
{
	if (p->on && p->tty)
		fputs("\r\033[K", stderr);
}
