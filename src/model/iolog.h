/*
 * fio's I/O logs (write_iolog, read_iolog): version 2 ("NAME ACTION
 * [OFFSET LEN]") and version 3 (a microsecond timestamp first), read into
 * memory whole and written line by line as fio 3.33 writes them.
 */
#ifndef IOGAUGE_IOLOG_H
#define IOGAUGE_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define IOLOG_MAX_BYTES (256u << 20) /* a log file larger than this is refused */
#define IOLOG_MAX_FILES 64

enum iolog_kind { IOLOG_IO, IOLOG_WAIT, IOLOG_ADD, IOLOG_OPEN, IOLOG_CLOSE };

struct iolog_entry {
	uint64_t t_us;   /* v3: microseconds since the log began; v2 wait: the wait */
	uint64_t offset;
	uint32_t len;
	uint32_t line;   /* in the log file, for messages */
	uint8_t kind;    /* enum iolog_kind */
	uint8_t op;      /* IO_READ, IO_WRITE, IO_TRIM, IO_FSYNC, IO_FDATASYNC (IOLOG_IO) */
	uint16_t file;   /* index into files */
};

struct iolog {
	int version;                 /* 2 or 3 (a blktrace trace: 3, timed from its first request) */
	bool blktrace;               /* read from a blktrace binary trace (blktrace.c) */
	struct iolog_entry *e;
	size_t n, cap;
	char *files[IOLOG_MAX_FILES]; /* the names the log uses, in order of appearance */
	unsigned nfiles;
	uint32_t dev[IOLOG_MAX_FILES]; /* blktrace: each file's device (12 bits major, 20 minor) */
};

/*
 * The text of a log (its first line "fio version 2|3 iolog").  0, or -1
 * with one line in err naming the line that is wrong.
 */
int iolog_parse(const char *text, size_t len, struct iolog *log, char *err, size_t errlen);
/* The same from a file, or a blktrace binary trace (by its magic) as blktrace_parse. */
int iolog_load(const char *path, struct iolog *log, char *err, size_t errlen);
void iolog_free(struct iolog *log);
/* 0 (little-endian) or 1 (big-endian) when b starts with blktrace's magic, -1 otherwise. */
int blktrace_byte_order(const unsigned char *b, size_t n);
/*
 * A blktrace binary trace, as fio 3.33 reads it: its queue events as
 * requests (entries' line: the record's number, from 1).  0, or -1 with one
 * line in err naming the record that is wrong.
 */
int blktrace_parse(const unsigned char *b, size_t len, struct iolog *log, char *err, size_t errlen);
/* Whether the log has a request of this op. */
bool iolog_has_op(const struct iolog *log, int op);
/* fio's word for an op ("read", "sync"...); NULL for ops a log cannot hold. */
const char *iolog_op_name(int op);

/* A version 3 log being written, as fio writes it: timestamps from its opening. */
struct iolog_writer {
	FILE *f;
	uint64_t t0;      /* now_ns() when opened */
	const char *name; /* the file name the lines carry */
	uint64_t last_off; /* fio's sync lines carry the offset of the request before */
	int err;          /* the first errno of a failed write, 0 */
	char own[256];    /* a name made here: fio's JOB.THREAD.FILE for a job without a file */
	char buf[8192];
};
/* Opens (appending, as fio) and writes the header and the "add" line.  0 or -errno. */
int iolog_writer_open(struct iolog_writer *w, const char *path, const char *name);
void iolog_writer_file(struct iolog_writer *w, const char *action);
void iolog_writer_io(struct iolog_writer *w, int op, uint64_t offset, uint64_t len);
/* Closes; 0 or -errno of the first failed write. */
int iolog_writer_close(struct iolog_writer *w);

/* A new zeroed entry at the end of log (text logs and blktrace traces); NULL: out of memory. */
struct iolog_entry *iolog_push(struct iolog *log);

#endif
