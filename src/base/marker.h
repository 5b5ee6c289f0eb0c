/*
 * The extended attribute on every file iogauge creates (stale.h says what
 * it holds and who reads it): its names, for the context that writes "kept".
 */
#ifndef IOGAUGE_MARKER_H
#define IOGAUGE_MARKER_H

#define IOGAUGE_XATTR "user.iogauge.created"
#define IOGAUGE_XATTR_KEPT "1 kept"

#endif
