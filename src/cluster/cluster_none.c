/* The plain binary: this process alone, every cluster call a no-op. */
#include "base/cluster.h"
#include "base/common.h"
#include "base/ctx.h"

#include <unistd.h>

static char host[64];

void cluster_init(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (gethostname(host, sizeof(host) - 1))
		host[0] = 0;
}

int cluster_exit(int status)
{
	return status;
}

unsigned cluster_rank(void)
{
	return 0;
}

unsigned cluster_size(void)
{
	return 1;
}

const char *cluster_host(void)
{
	return host;
}

unsigned cluster_host_ranks(void)
{
	return 1;
}

bool cluster_host_first(void)
{
	return true;
}

int cluster_agree(struct run_ctx *c, struct ig_err *e)
{
	(void)c;
	return e->status;
}

void cluster_host_turns(void (*fn)(void *arg), void *arg)
{
	fn(arg);
}

bool cluster_stopping(struct run_ctx *c)
{
	return c->stop != 0;
}

bool cluster_start(struct run_ctx *c, bool ok)
{
	(void)c;
	return ok;
}

void cluster_poll(struct run_ctx *c, const struct cluster_local *l)
{
	(void)c;
	(void)l;
}

void cluster_group_end(struct run_ctx *c, const struct cluster_local *l)
{
	(void)c;
	(void)l;
}

void cluster_merge(struct run_ctx *c, struct run_result *r)
{
	(void)c;
	(void)r;
}
