/*
 * Every I/O engine fio 3.33 knows (its engines/ directory), read from fio's
 * source by hand.  One table: the refusal of a job naming one iogauge lacks
 * and docs/fio.md's list are both made from it.
 */
#include "options/fio_engines.h"
#include "model/engine.h"

#include <string.h>

static const struct {
	const char *name;
	const char *what; /* what fio's engine does; NULL: iogauge has an engine of that name */
} fio_engines[] = {
	{ "sync", NULL },
	{ "psync", NULL },
	{ "vsync", NULL },
	{ "pvsync", NULL },
	{ "pvsync2", NULL },
	{ "libaio", NULL },
	{ "io_uring", NULL },
	{ "posixaio", NULL },
	{ "mmap", NULL },
	{ "null", NULL },
	{ "falloc", NULL },
	{ "ftruncate", NULL },
	{ "filecreate", NULL },
	{ "filestat", NULL },
	{ "filedelete", NULL },
	{ "io_uring_cmd", "io_uring passthrough commands to NVMe character devices" },
	{ "sg", "SCSI generic (SG_IO) commands" },
	{ "splice", "splice and vmsplice through a pipe" },
	{ "net", "TCP and UDP network transfers" },
	{ "netsplice", "network transfers through splice" },
	{ "rdma", "RDMA verbs" },
	{ "cpuio", "CPU burning, no I/O" },
	{ "exec", "running an external program" },
	{ "e4defrag", "ext4 online defragmentation" },
	{ "mtd", "raw flash (MTD) devices" },
	{ "nbd", "Network Block Device exports through libnbd" },
	{ "nfs", "NFS through libnfs" },
	{ "http", "HTTP, WebDAV, S3 and Swift object storage through libcurl" },
	{ "rados", "Ceph RADOS objects" },
	{ "rbd", "Ceph RBD images through librbd" },
	{ "gfapi", "GlusterFS through libgfapi" },
	{ "gfapi_async", "GlusterFS through libgfapi, asynchronous" },
	{ "libhdfs", "Hadoop HDFS" },
	{ "libiscsi", "iSCSI through libiscsi" },
	{ "libzbc", "zoned block devices through libzbc" },
	{ "libpmem", "persistent memory through libpmem" },
	{ "pmemblk", "persistent memory through libpmemblk" },
	{ "dev-dax", "persistent memory through a device-DAX device" },
	{ "librpma_apm_client", "RDMA to persistent memory through librpma" },
	{ "librpma_apm_server", "RDMA to persistent memory through librpma" },
	{ "librpma_gpspm_client", "RDMA to persistent memory through librpma" },
	{ "librpma_gpspm_server", "RDMA to persistent memory through librpma" },
	{ "libcufile", "NVIDIA GPUDirect Storage (cuFile)" },
	{ "dfs", "the DAOS file system" },
	{ "ime_psync", "DDN's Infinite Memory Engine" },
	{ "ime_psyncv", "DDN's Infinite Memory Engine" },
	{ "ime_aio", "DDN's Infinite Memory Engine" },
	{ "xnvme", "NVMe through xNVMe" },
	{ "solarisaio", "Solaris asynchronous I/O" },
	{ "windowsaio", "Windows asynchronous I/O" },
	{ "cpp_null", "its example external engine in C++" },
};

#define NENGINES (sizeof(fio_engines) / sizeof(fio_engines[0]))

int fio_engine_refused(const char *name, char *err, size_t n)
{
	/* fio loads "external:LIB" (and a path) as an engine from a shared library. */
	if (!strncmp(name, "external:", 9) || strchr(name, '/')) {
		snprintf(err, n, "ioengine '%s' (fio's external engine, a shared library) is not supported by iogauge",
			 name);
		return -1;
	}
	for (size_t i = 0; i < NENGINES; i++)
		if (fio_engines[i].what && !strcmp(fio_engines[i].name, name)) {
			snprintf(err, n, "ioengine '%s' (fio's engine for %s) is not supported by iogauge", name,
				 fio_engines[i].what);
			return -1;
		}
	return 0;
}

void fio_engines_markdown(FILE *f)
{
	unsigned has = 0, lacks = 0;
	fprintf(f, "## fio's engines\n\nEach `ioengine` of fio 3.33 (src/options/fio_engines.c). One iogauge lacks "
		   "is refused by name before any I/O (`ioengine 'rdma' (fio's engine for RDMA verbs) is not "
		   "supported by iogauge`, status 2), as is an external engine (`external:LIB`, a path).\n\n"
		   "| engine | in iogauge |\n| --- | --- |\n");
	for (size_t i = 0; i < NENGINES; i++) {
		const char *w = fio_engines[i].what;
		fprintf(f, "| `%s` | ", fio_engines[i].name);
		if (w) {
			fprintf(f, "no: fio's engine for %s |\n", w);
			lacks++;
		} else {
			/* An entry iogauge should have and does not is a bug the docs show. */
			fprintf(f, "%s |\n", engine_by_name(fio_engines[i].name) ? "yes" : "MISSING");
			has++;
		}
	}
	fprintf(f, "\n%u of fio's engines in iogauge, %u not.\n\n", has, lacks);
}
