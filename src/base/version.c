/*
 * iogauge's version as built (--version, the JSON's iogauge.version):
 * scripts/version.sh's, which the Makefile passes as IOGAUGE_BUILD_VERSION
 * (only this file is rebuilt when it changes).  Without it, the release number.
 */
#include "base/common.h"

#ifndef IOGAUGE_BUILD_VERSION
#define IOGAUGE_BUILD_VERSION IOGAUGE_VERSION
#endif

const char iogauge_version[] = IOGAUGE_BUILD_VERSION;
