/* The one begin and end of every measuring command (session.h). */
#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/session.h"

#include <string.h>

void session_init(struct session *ss, const struct command *cmd, const struct settings *s)
{
	memset(ss, 0, sizeof(*ss));
	ss->cmd = cmd;
	ss->s = s;
	ctx_init(&ss->ctx);
}

int session_begin(struct session *ss, bool keep, struct ig_err *e)
{
	if (outputs_open(&ss->out, ss->s, command_saved_summary, e))
		return -1;
	ss->open = true;
	if (session_save_begin(ss, e))
		return -1;
	ss->ctx.keep = keep;
	ctx_install_signals(&ss->ctx);
	return 0;
}

bool session_wants_root(const struct session *ss)
{
	return ss->open && (outputs_want_root(&ss->out, ss->s) || ss->save);
}

json_t *session_root(const struct session *ss, int status, bool interrupted, const struct ig_err *err)
{
	if (!session_wants_root(ss))
		return NULL;
	return ig_json_root(ss->cmd->name, status, interrupted, err);
}

int session_end(struct session *ss, json_t *root, int status)
{
	/* The tee (--save) leaves first: the outputs close the stream beneath it. */
	if (ss->results) {
		fclose(ss->out.out);
		ss->out.out = ss->results;
		ss->results = NULL;
	}
	if (ss->open)
		status = session_save_end(ss, root, outputs_finish(&ss->out, ss->s, root, status));
	ss->open = false;
	json_decref(root);
	ctx_finish(&ss->ctx);
	return status;
}

int session_refuse(struct session *ss, const struct ig_err *e)
{
	msg_err("%s", e->msg);
	return session_end(ss, NULL, e->status);
}
