/* fio's continue_on_error and ignore_error at run time: does a job go on past a failed request. */
#include "model/errtol.h"
#include "model/ops.h"

#include <errno.h>

bool errtol_goes_on(const struct job_errtol *t, int op, int err, bool *counts)
{
	unsigned type = err == EILSEQ ? ERRT_VERIFY : op == IO_READ ? ERRT_READ : ERRT_WRITE;
	*counts = t->coe >> type & 1;
	if (!*counts)
		return false;
	if (!t->ig.nlist[type])
		return err == EIO || err == EILSEQ;
	for (unsigned i = 0; i < t->ig.nlist[type]; i++)
		if (t->ig.list[type][i] == err)
			return true;
	return false;
}
