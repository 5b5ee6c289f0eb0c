/* A job's first error and the file it concerns (worker_error.h). */
#include "base/common.h"
#include "run/fileset.h"
#include "run/tree.h"
#include "run/worker_error.h"
#include "run/worker_state.h"

#include <stdio.h>

void worker_set_error(struct worker *w, int err, uint64_t offset, int op, bool short_io)
{
	if (w->st.err)
		return;
	/* A copy's writes and syncs go to its destination. */
	bool dst = w->copy_target && op != IO_READ && op < IO_OP_NR;
	w->st.err = err;
	w->st.err_offset = offset;
	w->st.err_op = op;
	w->st.short_io = short_io;
	if (io_op_is_file(op))
		fileset_describe(w->job, w->target->path, w->thread, offset, w->st.err_file,
				 sizeof(w->st.err_file));
	else if (w->job->plan.tree && op == IO_READ)
		tree_describe(w->job->plan.tree, offset, w->st.err_file, sizeof(w->st.err_file));
	else
		snprintf(w->st.err_file, sizeof(w->st.err_file), "%s",
			 dst ? w->copy_target->path : w->target->path);
	w->issuing = false;
}
