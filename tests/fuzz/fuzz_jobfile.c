/* Fuzz target: fio job files (src/options/jobfile.c), read from a memory file as `run` reads them. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/common.h"
#include "cmds/commands.h"
#include "options/args.h"
#include "options/jobfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > JOBFILE_MAX)
		return 0;
	int fd = memfd_create("jobfile", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	const struct command *run = command_find("run");
	struct parsed_args pa;
	struct ig_err e = { 0 };
	char *argv[] = { NULL };
	if (!args_parse(0, argv, run, &pa, &e))
		jobfile_parse(path, run, &pa, &e);
	args_free(&pa);
	close(fd);
	return 0;
}
